import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { notionToolkit } from "./toolkit.js";

const WRITES = ["notion_create_page", "notion_update_page", "notion_append_blocks", "notion_comment"];

describe("the Notion toolkit as data", () => {
  it("declares its seven tools, vendor-prefixed, in knowledge, with no network and no credential", () => {
    const tools = notionToolkit.declarations();
    expect(tools.map((tool) => tool.name)).toEqual([
      "notion_search",
      "notion_get_page",
      "notion_query_database",
      ...WRITES,
    ]);
    for (const tool of tools) {
      expect(tool.category).toBe("knowledge");
      expect(tool.provenance).toBe("package:@toolreg/tools-notion");
    }
  });

  it("gates each write for approval under the seam's key, and claims no deduplication Notion does not do", () => {
    for (const tool of notionToolkit.declarations()) {
      const writes = WRITES.includes(tool.name);
      expect(tool.effect, tool.name).toBe(writes ? "external-write" : "read");
      expect(tool.approval, tool.name).toBe(writes ? "always" : "never");
      expect(tool.idempotencyKey, tool.name).toBe(writes);
      expect(tool.upstreamDeduplicates, tool.name).toBe(false);
      expect(tool.overrides, tool.name).toEqual([]);
    }
  });

  it("triages the package with one directed wildcard row, and nothing as publishing", () => {
    expect(notionToolkit.triage?.publishing ?? []).toEqual([]);
    expect(notionToolkit.triage?.directed).toEqual([
      expect.objectContaining({ tool: "@toolreg/tools-notion/*", package: "@toolreg/tools-notion" }),
    ]);
  });

  it("takes an integration token only, sent as a bearer token: a missing one fails, never asks for consent", () => {
    expect(notionToolkit.auth).toEqual({ kind: "token", header: "authorization", scheme: "Bearer" });
  });
});

describe("the Notion toolkit's configuration", () => {
  it("defaults to api.notion.com, the credential named notion, and its bounds", () => {
    expect(notionToolkit.parseConfig({})).toEqual({
      credentialRef: "notion",
      baseUrl: "https://api.notion.com",
      maxItems: 50,
      maxDepth: 3,
      maxBlocks: 300,
      maxRequests: 25,
      maxChars: 60_000,
    });
    expect(notionToolkit.hosts).toEqual([new URL(notionToolkit.parseConfig({}).baseUrl).hostname]);
  });

  it("names each bad field, and takes no field it does not know (a token typed into the config)", () => {
    expect(() => notionToolkit.parseConfig({ maxItems: 101 })).toThrow(/maxItems/);
    expect(() => notionToolkit.parseConfig({ maxDepth: 0 })).toThrow(/maxDepth/);
    expect(() => notionToolkit.parseConfig({ baseUrl: "file:///etc" })).toThrow(/baseUrl/);
    expect(() => notionToolkit.parseConfig({ token: "ntn_1" })).toThrow(/token/);
  });

  it("asks its host for egress to the API's host alone, with the configured credential injected there", async () => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    const tools = await notionToolkit.build(
      { baseUrl: "https://notion.example.test/", credentialRef: "tenant-notion" },
      spying,
      { exclude: WRITES },
    );
    await host.close();
    expect(tools.map((tool) => tool.name)).toEqual([
      "notion_search",
      "notion_get_page",
      "notion_query_database",
    ]);
    expect(asked).toEqual([
      {
        hosts: ["notion.example.test"],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: "tenant-notion" },
      },
    ]);
  });
});
