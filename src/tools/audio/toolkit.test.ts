/** @module The audio toolkit as a unit: declared as data, each tool present only with its engine and store, its configuration checked. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createFileArtifactStore } from "../../artifacts/file-artifact-store.js";
import { createMemoryAttachmentStore } from "../../stores/memory/attachments.js";
import { createToolkitHost, type ToolkitHost } from "../toolkit/toolkit-host.js";
import { BUILT_IN_TOOLKITS } from "../toolkits.js";
import { audioToolkit } from "./index.js";

const scratch = mkdtempSync(join(tmpdir(), "toolreg-audio-toolkit-"));
const bare = createToolkitHost();
const stores = createToolkitHost({ attachments: createMemoryAttachmentStore() });
const withArtifacts = createToolkitHost({
  attachments: createMemoryAttachmentStore(),
  artifacts: createFileArtifactStore(scratch),
});
afterAll(async () => {
  await bare.close();
  await stores.close();
  await withArtifacts.close();
  rmSync(scratch, { recursive: true, force: true });
});

const openai = { provider: "openai", credentialRef: "openai" } as const;
const names = async (config: unknown, host: ToolkitHost = withArtifacts) =>
  (await audioToolkit.build(config, host)).map((tool) => tool.name);

describe("audioToolkit", () => {
  it("declares transcribe (a read, never asked) and speech_generate (a write the policy decides) in media", () => {
    const [transcribe, speech, ...others] = audioToolkit.declarations();
    expect(others).toHaveLength(0);
    expect(transcribe).toMatchObject({
      name: "transcribe",
      category: "media",
      effect: "read",
      approval: "never",
    });
    expect(speech).toMatchObject({
      name: "speech_generate",
      category: "media",
      effect: "internal-write",
      approval: "policy",
      provenance: "first-party",
    });
    expect(speech?.overrides).toEqual([expect.objectContaining({ field: "approval", declared: "policy" })]);
    expect(audioToolkit).toMatchObject({
      id: "audio",
      package: "toolreg",
      auth: { kind: "api-key", header: "authorization", scheme: "Bearer" },
      hosts: ["api.openai.com"],
    });
  });

  it("is among the built-in toolkits", () => {
    expect(BUILT_IN_TOOLKITS).toContain(audioToolkit);
  });

  it("serves a tool only when its engine is configured and the host has its store", async () => {
    expect(await names(undefined)).toEqual([]);
    expect(await names({})).toEqual([]);
    expect(await names({ transcription: openai })).toEqual(["transcribe"]);
    expect(await names({ speech: { provider: "espeak" } })).toEqual(["speech_generate"]);
    expect(await names({ transcription: openai, speech: { ...openai, model: "tts-1" } })).toEqual([
      "transcribe",
      "speech_generate",
    ]);
    // Speech is kept as an artifact: a host without an artifact store serves no speech_generate.
    expect(await names({ transcription: openai, speech: { provider: "espeak" } }, stores)).toEqual([
      "transcribe",
    ]);
    // Audio is read from attachments or artifacts: a host with neither serves no transcribe.
    expect(await names({ transcription: openai }, bare)).toEqual([]);
  });

  it.each([
    [{ transcription: { provider: "whisper.cpp", credentialRef: "k" } }, /transcription/],
    [{ transcription: { provider: "openai" } }, /credentialRef/],
    [{ transcription: { ...openai, apiKey: "sk-in-the-file" } }, /apiKey/],
    [{ transcription: { ...openai, model: "gpt-5" } }, /model/],
    [
      { transcription: { ...openai, baseUrl: "https://user:pass@api.example" } },
      /a credential goes in credentialRef/,
    ],
    [{ transcription: { ...openai, baseUrl: "ftp://api.example" } }, /baseUrl/],
    [{ speech: { provider: "espeak", credentialRef: "k" } }, /credentialRef/],
    [{ speech: { provider: "espeak", command: "/bin/sh" } }, /command/],
    [{ speech: { provider: "espeak", timeoutMs: 500 } }, /timeoutMs/],
    [{ speech: { provider: "polly" } }, /provider/],
    [{ music: {} }, /music/],
  ])("refuses the configuration %j, naming the field", (config, message) => {
    expect(() => audioToolkit.parseConfig(config)).toThrow(message);
  });
});
