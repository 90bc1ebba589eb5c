import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { scrapeToolkit } from "./toolkit.js";

describe("the scrape toolkit as data", () => {
  it("declares web_scrape and web_scrape_batch under policy and web_crawl always approved, all web reads", () => {
    const tools = scrapeToolkit.declarations();
    expect(tools.map((tool) => [tool.name, tool.category, tool.effect, tool.approval])).toEqual([
      ["web_scrape", "web", "read", "policy"],
      ["web_scrape_batch", "web", "read", "policy"],
      ["web_crawl", "web", "read", "always"],
    ]);
    for (const tool of tools) {
      expect(tool.provenance).toBe("package:@toolreg/tools-scrape");
      expect(tool.overrides.map((override) => override.field)).toEqual(["approval"]);
      expect(tool.description).toMatch(/untrusted/);
    }
  });

  it("says in web_scrape's description that it is the first choice and how it differs from fetch_url", () => {
    const scrape = scrapeToolkit.declarations().find((tool) => tool.name === "web_scrape");
    expect(scrape?.description).toMatch(/first choice/);
    expect(scrape?.description).toMatch(/fetch_url/);
    expect(scrape?.description).toMatch(/web_scrape_batch/);
  });
});

describe("the scrape toolkit's configuration", () => {
  it("defaults to a direct fetch with the robots.txt token toolreg", () => {
    expect(scrapeToolkit.parseConfig({})).toEqual({ provider: "direct", userAgent: "toolreg" });
  });

  it("names each bad field", () => {
    expect(() => scrapeToolkit.parseConfig({ provider: "firecrawl" })).toThrow(/credentialRef/);
    expect(() => scrapeToolkit.parseConfig({ provider: "direct", credentialRef: "x" })).toThrow(
      /credentialRef/,
    );
    expect(() => scrapeToolkit.parseConfig({ provider: "spider" })).toThrow(/provider/);
    expect(() => scrapeToolkit.parseConfig({ userAgent: "toolreg/1.0 (+https://x)" })).toThrow(/userAgent/);
    expect(() => scrapeToolkit.parseConfig({ provider: "jina", baseUrl: "https://k:s@r.jina.ai" })).toThrow(
      /baseUrl/,
    );
    expect(() => scrapeToolkit.parseConfig({ apiKey: "fc-1" })).toThrow(/apiKey/);
  });

  it.each([
    [{}, [{}]],
    [
      { provider: "firecrawl", credentialRef: "fc" },
      [
        {
          hosts: ["api.firecrawl.dev"],
          credential: { header: "authorization", scheme: "Bearer", credentialRef: "fc" },
        },
        // No host restriction: it only checks page URLs against the operator's policy.
        {},
      ],
    ],
    [{ provider: "jina" }, [{ hosts: ["r.jina.ai"] }, {}]],
  ])("asks its host for the egress %j needs", async (config, expected) => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    await scrapeToolkit.build(config, spying);
    await host.close();
    expect(asked).toEqual(expected);
  });
});
