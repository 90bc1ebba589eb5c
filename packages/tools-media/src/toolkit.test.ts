import { createToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { createMemoryArtifacts } from "./fake/memory-artifacts.js";
import { mediaToolkit } from "./toolkit.js";

const openai = { provider: "openai", credentialRef: "openai" };
const luma = { provider: "luma", credentialRef: "luma" };

describe("the media toolkit as data", () => {
  it("declares image_generate and video_generate in media, internal writes with reviewed approvals", () => {
    const [image, video] = mediaToolkit.declarations();
    expect(mediaToolkit.id).toBe("media");
    expect([image?.name, video?.name]).toEqual(["image_generate", "video_generate"]);
    for (const tool of [image, video]) {
      expect(tool?.category).toBe("media");
      expect(tool?.effect).toBe("internal-write");
      expect(tool?.provenance).toBe("package:@toolreg/tools-media");
      expect(tool?.upstreamDeduplicates).toBe(false);
    }
    expect(image?.approval).toBe("policy");
    expect(video?.approval).toBe("always");
    expect(image?.overrides).toEqual([
      expect.objectContaining({ field: "approval", derived: "never", declared: "policy" }),
    ]);
    expect(video?.overrides).toEqual([
      expect.objectContaining({ field: "approval", derived: "never", declared: "always" }),
    ]);
    expect(mediaToolkit.reviewedOverrides?.map((row) => row.tool)).toEqual([
      "image_generate",
      "video_generate",
    ]);
  });

  it("names every default API and delivery host it may reach", () => {
    expect(mediaToolkit.hosts).toEqual(
      expect.arrayContaining([
        "api.openai.com",
        "api.replicate.com",
        "replicate.delivery",
        "*.replicate.delivery",
        "fal.run",
        "*.fal.media",
        "api.lumalabs.ai",
        "storage.cdn-luma.com",
        "modelslab.com",
        "cdn.modelslab.com",
      ]),
    );
  });
});

describe("the media toolkit's wiring", () => {
  const artifactsHost = () => createToolkitHost({ artifacts: createMemoryArtifacts() });

  it("serves nothing without an artifact store: a generated file is never inlined", async () => {
    const host = createToolkitHost();
    expect(await mediaToolkit.build({ image: openai, video: luma }, host)).toEqual([]);
    await host.close();
  });

  it("serves only the tools whose provider is configured", async () => {
    const host = artifactsHost();
    expect(await mediaToolkit.build({}, host)).toEqual([]);
    expect((await mediaToolkit.build({ image: openai }, host)).map((tool) => tool.name)).toEqual([
      "image_generate",
    ]);
    expect((await mediaToolkit.build({ video: luma }, host)).map((tool) => tool.name)).toEqual([
      "video_generate",
    ]);
    await host.close();
  });

  it("refuses a provider a tool does not have, a model that is a path, and fields it does not know", () => {
    expect(() => mediaToolkit.parseConfig({ video: { provider: "openai", credentialRef: "k" } })).toThrow(
      /video\.provider/,
    );
    expect(() =>
      mediaToolkit.parseConfig({
        image: { provider: "replicate", credentialRef: "k", model: "../../account" },
      }),
    ).toThrow(/image\.model/);
    expect(() => mediaToolkit.parseConfig({ image: { ...openai, apiKey: "sk-..." } })).toThrow(/apiKey/);
    expect(() => mediaToolkit.parseConfig({ image: { provider: "fal" } })).toThrow(/credentialRef/);
    expect(() =>
      mediaToolkit.parseConfig({ image: { ...openai, deliveryHosts: ["https://evil.example/"] } }),
    ).toThrow(/deliveryHosts/);
  });
});
