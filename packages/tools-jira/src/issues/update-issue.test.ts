import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JiraHarness, startJiraHarness } from "../fake/jira-harness.js";

let jira: JiraHarness;
beforeAll(async () => {
  jira = await startJiraHarness();
});
afterEach(() => {
  jira.fake.requests.length = 0;
});
afterAll(() => jira.close());

describe("jira_update_issue", () => {
  it("PUTs only the fields given, the description as ADF, and Jira answers 204", async () => {
    const result = await jira.callApproved("jira_update_issue", {
      key: "PROJ-6",
      summary: "Renamed",
      description: "## Context\n\nSee [the runbook](https://runbooks.example/disk).",
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "PUT",
        path: "/rest/api/3/issue/PROJ-6",
        body: {
          fields: {
            summary: "Renamed",
            description: {
              type: "doc",
              version: 1,
              content: [
                { type: "heading", attrs: { level: 2 } },
                {
                  type: "paragraph",
                  content: [
                    { type: "text", text: "See " },
                    {
                      type: "text",
                      text: "the runbook",
                      marks: [{ type: "link", attrs: { href: "https://runbooks.example/disk" } }],
                    },
                    { type: "text", text: "." },
                  ],
                },
              ],
            },
          },
        },
      },
    ]);
    const sent = jira.fake.requests[0]?.body as { fields: object } | undefined;
    expect(Object.keys(sent?.fields ?? {})).toEqual(["summary", "description"]);
    expect(result).toMatchObject({
      ok: true,
      content: "Updated summary, description of PROJ-6: https://acme.atlassian.net/browse/PROJ-6",
      data: { key: "PROJ-6", changed: ["summary", "description"] },
    });
    expect(jira.site.issues.get("PROJ-6")?.summary).toBe("Renamed");
  });

  it("says when the issue is not there", async () => {
    expect(await jira.callApproved("jira_update_issue", { key: "PROJ-404", labels: ["x"] })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", details: { status: 404 } },
    });
  });

  it("refuses a status, even beside a field it writes (the description points to jira_transition_issue)", async () => {
    const result = await jira.call("jira_update_issue", { key: "PROJ-6", summary: "New", status: "Done" });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "invalid_input", details: { unknownArguments: ["status"] } },
    });
    expect(jira.fake.requests).toEqual([]);
  });

  it("refuses a call that changes nothing, or hostile input, before sending anything", async () => {
    for (const input of [
      { key: "PROJ-6" },
      { key: "PROJ-6", summary: "" },
      { key: "PROJ-6", status: "Done" },
      { key: "proj-6", summary: "x" },
      { key: "PROJ-6", priority: "High\r\n" },
    ]) {
      const result = await jira.call("jira_update_issue", input);
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(input)).toBe("invalid_input");
    }
    expect(jira.fake.requests).toEqual([]);
  });
});
