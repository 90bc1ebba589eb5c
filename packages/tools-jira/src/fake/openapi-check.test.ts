import { describe, expect, it } from "vitest";
import { startJiraHarness } from "./jira-harness.js";
import { checkAgainstOpenApi as check } from "./openapi-check.js";

const ISSUE_ROUTE = "/rest/api/3/issue/:issueIdOrKey";

describe("checkAgainstOpenApi (Atlassian's Jira Cloud platform description, trimmed)", () => {
  it("passes documented answers and ErrorCollection errors", () => {
    expect(() => check("GET", ISSUE_ROUTE, 200, { id: "1", key: "PROJ-1", fields: {} })).not.toThrow();
    expect(() =>
      check("POST", "/rest/api/3/issue", 201, { id: "1", key: "PROJ-1", self: "x" }),
    ).not.toThrow();
    expect(() => check("GET", ISSUE_ROUTE, 404, { errorMessages: ["gone"], errors: {} })).not.toThrow();
    expect(() => check("PUT", ISSUE_ROUTE, 204, undefined)).not.toThrow();
  });

  it("fails a wrong type or a field Jira never sends, naming the operation", () => {
    expect(() => check("GET", ISSUE_ROUTE, 200, { id: 1, key: "PROJ-1" })).toThrow(
      /GET \/rest\/api\/3\/issue\/\{issueIdOrKey\} \(getIssue\).*id must be string/,
    );
    expect(() => check("POST", "/rest/api/3/search/jql", 200, { issues: [], total: 3 })).toThrow(
      /searchAndReconsileIssuesUsingJqlPost.*total is not a field Jira sends/,
    );
    expect(() => check("GET", ISSUE_ROUTE, 404, { message: "Not Found" })).toThrow(
      /message is not a field Jira sends/,
    );
  });

  it("refuses a route or a status Jira does not document", () => {
    expect(() => check("GET", "/rest/api/3/search", 200, {})).toThrow(
      /Jira documents no GET \/rest\/api\/3\/search/,
    );
    expect(() => check("GET", ISSUE_ROUTE, 418, {})).toThrow(
      /documents no 418 answer .*\(it documents 200, 401, 404\)/,
    );
  });

  it("is wired into the harness: an answer Jira never sends fails the suite that served it", async () => {
    const jira = await startJiraHarness();
    const issue = jira.site.issues.get("PROJ-2");
    if (issue) (issue as unknown as { id: number }).id = 7;
    const result = await jira.call("jira_get_issue", { key: "PROJ-2" });
    expect(result).toMatchObject({ ok: false, error: { code: "upstream_error" } });
    await expect(jira.close()).rejects.toThrow(
      /served answers Jira never sends:\n.*getIssue.*id must be string/,
    );
  });
});
