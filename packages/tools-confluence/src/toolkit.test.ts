import { describe, expect, it } from "vitest";
import { apiRootOf } from "./confluence-config.js";
import { ATLASSIAN_OAUTH, confluenceToolkit } from "./toolkit.js";

describe("the Confluence toolkit", () => {
  it("declares its six tools: three reads, three gated writes with no upstream deduplication", () => {
    const tools = confluenceToolkit.declarations();
    const summary = Object.fromEntries(
      tools.map((tool) => [tool.name, [tool.effect, tool.approval, tool.upstreamDeduplicates]]),
    );
    expect(summary).toEqual({
      confluence_search: ["read", "never", false],
      confluence_get_page: ["read", "never", false],
      confluence_list_spaces: ["read", "never", false],
      confluence_create_page: ["external-write", "always", false],
      confluence_update_page: ["external-write", "always", false],
      confluence_comment: ["external-write", "always", false],
    });
    expect(new Set(tools.map((tool) => tool.category))).toEqual(new Set(["knowledge"]));
    expect(confluenceToolkit.tools.map((tool) => [tool.name, tool.oauthScopes])).toEqual([
      ["confluence_search", ["search:confluence"]],
      ["confluence_get_page", ["read:page:confluence"]],
      ["confluence_list_spaces", ["read:space:confluence"]],
      ["confluence_create_page", ["write:page:confluence"]],
      ["confluence_update_page", ["write:page:confluence"]],
      ["confluence_comment", ["write:comment:confluence"]],
    ]);
  });

  it("asks for consent at Atlassian's 3LO endpoints and triages its writes as one directed wildcard row", () => {
    expect(confluenceToolkit.auth).toMatchObject({
      kind: "token-or-oauth",
      header: "authorization",
      oauth: {
        authorizeUrl: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent",
        tokenUrl: "https://auth.atlassian.com/oauth/token",
        requestAlways: ["offline_access"],
      },
    });
    expect(confluenceToolkit.triage?.directed).toEqual([
      expect.objectContaining({ tool: "@toolreg/tools-confluence/*", package: "@toolreg/tools-confluence" }),
    ]);
  });

  it("goes to the site for a siteUrl and to Atlassian's gateway for a cloudId, and takes exactly one", () => {
    const cloudId = "1324a887-45db-1bf4-1e99-ef0ff456d421";
    expect(apiRootOf(confluenceToolkit.parseConfig({ siteUrl: "https://acme.atlassian.net/" }))).toBe(
      "https://acme.atlassian.net",
    );
    expect(apiRootOf(confluenceToolkit.parseConfig({ cloudId }))).toBe(
      `https://api.atlassian.com/ex/confluence/${cloudId}`,
    );
    expect(() => confluenceToolkit.parseConfig({})).toThrow(/exactly one of siteUrl or cloudId/);
    expect(() => confluenceToolkit.parseConfig({ cloudId, siteUrl: "https://acme.atlassian.net" })).toThrow(
      /exactly one/,
    );
    expect(() => confluenceToolkit.parseConfig({ siteUrl: "http://acme.atlassian.net" })).toThrow(
      /https only/,
    );
    expect(() => confluenceToolkit.parseConfig({ siteUrl: "https://u:p@acme.atlassian.net" })).toThrow(
      /credentialRef/,
    );
    expect(confluenceToolkit.parseConfig({ siteUrl: "https://acme.atlassian.net" })).toMatchObject({
      credentialRef: "confluence",
      maxItems: 25,
    });
    // A 3LO token is accepted only at the gateway: a siteUrl deployment asks no one for consent.
    const oauthFor = (config: object) =>
      confluenceToolkit.oauthEndpoints?.(confluenceToolkit.parseConfig(config));
    expect(oauthFor({ siteUrl: "https://acme.atlassian.net" })).toBeUndefined();
    expect(oauthFor({ cloudId })).toBe(ATLASSIAN_OAUTH);
  });
});
