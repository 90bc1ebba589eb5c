import { describe, expect, it } from "vitest";
import { apiRootOf } from "./jira-config.js";
import { ATLASSIAN_OAUTH, jiraToolkit } from "./toolkit.js";

const CLOUD_ID = "11223344-a1b2-3b33-c444-def123456789";

describe("the Jira toolkit", () => {
  it("declares its eight tools: four reads and four gated writes, each with Atlassian's classic scopes", () => {
    const effects = Object.fromEntries(jiraToolkit.declarations().map((tool) => [tool.name, tool.effect]));
    expect(effects).toEqual({
      jira_search_issues: "read",
      jira_get_issue: "read",
      jira_list_projects: "read",
      jira_list_transitions: "read",
      jira_create_issue: "external-write",
      jira_update_issue: "external-write",
      jira_transition_issue: "external-write",
      jira_comment: "external-write",
    });
    for (const tool of jiraToolkit.declarations()) {
      expect(tool.category).toBe("project");
      expect(tool.approval).toBe(tool.effect === "read" ? "never" : "always");
      // Jira takes no idempotency key: a lost outcome is reported unknown, never deduplicated upstream.
      expect(tool.upstreamDeduplicates).toBe(false);
    }
    const scopes = Object.fromEntries(jiraToolkit.tools.map((tool) => [tool.name, tool.oauthScopes]));
    expect(scopes.jira_search_issues).toEqual(["read:jira-work"]);
    expect(scopes.jira_comment).toEqual(["write:jira-work"]);
    expect(scopes.jira_transition_issue).toEqual(["read:jira-work", "write:jira-work"]);
  });

  it("uses Atlassian's OAuth 2.0 (3LO) endpoints, and places the credential in authorization with no scheme", () => {
    expect(jiraToolkit.auth).toEqual({
      kind: "token-or-oauth",
      header: "authorization",
      oauth: ATLASSIAN_OAUTH,
    });
    expect(ATLASSIAN_OAUTH).toEqual({
      authorizeUrl: "https://auth.atlassian.com/authorize?audience=api.atlassian.com&prompt=consent",
      tokenUrl: "https://auth.atlassian.com/oauth/token",
      // Atlassian issues a refresh token only when offline_access is asked for.
      requestAlways: ["offline_access"],
    });
  });

  it("asks for OAuth consent only with a cloudId: a 3LO token is refused at the site itself", () => {
    const endpointsFor = (config: unknown) => jiraToolkit.oauthEndpoints?.(jiraToolkit.parseConfig(config));
    expect(endpointsFor({ cloudId: CLOUD_ID })).toBe(ATLASSIAN_OAUTH);
    expect(endpointsFor({ siteUrl: "https://acme.atlassian.net" })).toBeUndefined();
  });

  it("sends requests to the site for a siteUrl, to api.atlassian.com for a cloudId, and to apiUrl when given", () => {
    expect(apiRootOf(jiraToolkit.parseConfig({ siteUrl: "https://acme.atlassian.net/" }))).toBe(
      "https://acme.atlassian.net",
    );
    expect(apiRootOf(jiraToolkit.parseConfig({ cloudId: CLOUD_ID }))).toBe(
      `https://api.atlassian.com/ex/jira/${CLOUD_ID}`,
    );
    expect(apiRootOf(jiraToolkit.parseConfig({ cloudId: CLOUD_ID, apiUrl: "http://127.0.0.1:9/jira" }))).toBe(
      "http://127.0.0.1:9/jira",
    );
  });

  it("refuses a configuration naming no site, both, a URL that carries a credential, or a site over http", () => {
    expect(() => jiraToolkit.parseConfig({})).toThrow(/siteUrl: name the Jira site by siteUrl or by cloudId/);
    expect(() =>
      jiraToolkit.parseConfig({ siteUrl: "https://acme.atlassian.net", cloudId: CLOUD_ID }),
    ).toThrow(/one of them/);
    expect(() => jiraToolkit.parseConfig({ siteUrl: "https://ann:tok@acme.atlassian.net" })).toThrow(
      /credentials/,
    );
    expect(() => jiraToolkit.parseConfig({ cloudId: "acme" })).toThrow(/UUID/);
    // Basic credentials in clear text: a site is https only (apiUrl may be http, for a local fake).
    expect(() => jiraToolkit.parseConfig({ siteUrl: "http://acme.atlassian.net" })).toThrow(/siteUrl/);
  });
});
