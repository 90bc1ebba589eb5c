/** @module The search toolkit as a unit: declared as data, absent unless configured, its configuration checked. */
import { afterAll, describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { createToolkitHost } from "../toolkit/toolkit-host.js";
import { CREDENTIAL_REF } from "./fakes/fixture-pages.js";
import { startSearchRig } from "./fakes/search-rig.js";
import { searchToolkit } from "./index.js";

const host = createToolkitHost();
afterAll(() => host.close());

describe("searchToolkit", () => {
  it("declares web_search as data: a read in the web category whose approval the policy decides", () => {
    const [tool, ...others] = searchToolkit.declarations();
    expect(others).toHaveLength(0);
    expect(tool).toMatchObject({
      name: "web_search",
      category: "web",
      effect: "read",
      approval: "policy",
      idempotencyKey: false,
      provenance: "first-party",
    });
    expect(tool?.overrides).toEqual([
      expect.objectContaining({ field: "approval", derived: "never", declared: "policy" }),
    ]);
    expect(searchToolkit.reviewedOverrides).toEqual([{ tool: "web_search", field: "approval" }]);
    expect(searchToolkit).toMatchObject({ id: "search", package: "toolreg", auth: { kind: "api-key" } });
  });

  it("builds no tool when no provider is configured", async () => {
    expect(await searchToolkit.build(undefined, host)).toEqual([]);
    expect(await searchToolkit.build({}, host)).toEqual([]);
  });

  it("builds web_search for each provider with what that provider needs", async () => {
    for (const config of [
      { provider: "brave", credentialRef: "brave" },
      { provider: "tavily", credentialRef: "tavily", maxResults: 5 },
      { provider: "serper", credentialRef: "serper", baseUrl: "https://serper.proxy.example/v1" },
      { provider: "searxng", baseUrl: "http://searxng.internal:8080" },
    ]) {
      const tools = await searchToolkit.build(config, host);
      expect(tools.map((tool) => tool.name)).toEqual(["web_search"]);
    }
  });

  it.each([
    [{ provider: "bing", credentialRef: "k" }, /provider/],
    [{ provider: "brave" }, /credentialRef: brave needs the reference of its API key/],
    [{ provider: "tavily", credentialRef: "" }, /credentialRef/],
    [{ provider: "searxng" }, /baseUrl: searxng needs the instance's URL/],
    [
      { provider: "searxng", baseUrl: "http://searxng:8080", credentialRef: "k" },
      /credentialRef: searxng takes no API key/,
    ],
    [{ provider: "brave", credentialRef: "k", baseUrl: "ftp://api.example" }, /baseUrl/],
    [
      { provider: "brave", credentialRef: "k", baseUrl: "https://user:pass@api.example" },
      /a credential goes in credentialRef/,
    ],
    [{ provider: "brave", credentialRef: "k", baseUrl: "https://api.example/?token=x" }, /without a query/],
    [{ provider: "brave", credentialRef: "k", maxResults: 21 }, /maxResults/],
    [{ provider: "brave", credentialRef: "k", apiKey: "sk-in-the-file" }, /apiKey/],
    [
      { credentialRef: "k", maxResults: 5 },
      /provider: name the provider these settings are for \(credentialRef, maxResults\)/,
    ],
  ])("refuses the configuration %j, naming the field", (config, message) => {
    expect(() => searchToolkit.parseConfig(config)).toThrow(message);
  });

  it("refuses a call whose credential cannot be resolved, naming the reference, before reaching the vendor", async () => {
    const rig = await startSearchRig("tavily");
    try {
      const harness = createTestHarness(rig.tools, { clock: Date.now });
      const envelope = await harness.seam.call(harness.context(), "web_search", { query: "tea" });
      expect(envelope.ok).toBe(false);
      if (envelope.ok) return;
      expect(envelope.error.code).toBe("auth_required");
      expect(envelope.error.message).toContain(`"${CREDENTIAL_REF}"`);
      expect(rig.fake.requests).toHaveLength(0);
    } finally {
      await rig.close();
    }
  });
});
