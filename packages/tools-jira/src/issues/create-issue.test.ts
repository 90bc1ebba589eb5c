import { approvalIdOf } from "toolreg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JiraHarness, startJiraHarness } from "../fake/jira-harness.js";
import { ACCOUNT, STORED_CREDENTIAL } from "../fake/jira-site.js";

let jira: JiraHarness;
beforeAll(async () => {
  jira = await startJiraHarness();
});
afterEach(() => {
  jira.fake.requests.length = 0;
});
afterAll(() => jira.close());

const BUG = { project: "OPS", issueType: "Bug", summary: "Disk full on db-2" };

describe("jira_create_issue", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    expect(approvalIdOf(await jira.call("jira_create_issue", BUG))).toEqual(expect.any(String));
    expect(jira.fake.requests).toEqual([]);
  });

  it("POSTs /rest/api/3/issue with the fields, the markdown description as ADF, and returns the new key", async () => {
    const result = await jira.callApproved("jira_create_issue", {
      ...BUG,
      description: "Alert fired at 03:00.\n\n- check `df -h`\n- rotate logs",
      labels: ["ops", "disk"],
      priority: "Highest",
      assigneeAccountId: ACCOUNT.accountId,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "POST",
        path: "/rest/api/3/issue",
        authorization: `Basic ${Buffer.from(STORED_CREDENTIAL).toString("base64")}`,
        body: {
          fields: {
            project: { key: "OPS" },
            issuetype: { name: "Bug" },
            summary: "Disk full on db-2",
            labels: ["ops", "disk"],
            priority: { name: "Highest" },
            assignee: { accountId: ACCOUNT.accountId },
            description: {
              type: "doc",
              version: 1,
              content: [
                { type: "paragraph", content: [{ type: "text", text: "Alert fired at 03:00." }] },
                { type: "bulletList", content: [{ type: "listItem" }, { type: "listItem" }] },
              ],
            },
          },
        },
      },
    ]);
    expect(result).toMatchObject({
      ok: true,
      content: "Created OPS-3 in OPS: https://acme.atlassian.net/browse/OPS-3",
      data: { key: "OPS-3", url: "https://acme.atlassian.net/browse/OPS-3" },
    });
    expect(jira.site.issues.get("OPS-3")?.summary).toBe("Disk full on db-2");
  });

  it("tells Jira's per-field 400 as invalid input naming the fields", async () => {
    const result = await jira.callApproved("jira_create_issue", {
      ...BUG,
      issueType: "Incident",
      priority: "Urgent",
    });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message:
          "Jira rejected a new Incident in project OPS: issuetype: Specify a valid issue type; priority: Priority name 'Urgent' is not valid; change the input before retrying",
      },
    });
  });

  it("tells a 403 as a missing permission", async () => {
    jira.fake.next("forbidden");
    expect(await jira.callApproved("jira_create_issue", BUG)).toMatchObject({
      ok: false,
      error: {
        code: "upstream_error",
        retryable: false,
        message: expect.stringMatching(
          /^the connected Jira account may not do a new Bug in project OPS: You do not have permission/,
        ),
      },
    });
  });

  it("refuses hostile input before sending anything", async () => {
    const hostile = [
      { ...BUG, project: "ops" },
      { ...BUG, project: "OPS/../../x" },
      // Jira Cloud keeps a project key to 10 characters.
      { ...BUG, project: "ABCDEFGHIJK" },
      { ...BUG, summary: "two\nlines" },
      { ...BUG, summary: "x".repeat(256) },
      { ...BUG, labels: ["has space"] },
      { ...BUG, description: "x".repeat(32_001) },
      { ...BUG, assigneeAccountId: "ann@acme.example" },
      { ...BUG, parent: "not a key" },
      { ...BUG, issueType: "Bug\u0000" },
    ];
    for (const input of hostile) {
      const result = await jira.call("jira_create_issue", input);
      expect(result.ok ? "ok" : result.error.code, JSON.stringify(input).slice(0, 80)).toBe("invalid_input");
    }
    expect(jira.fake.requests).toEqual([]);
  });
});
