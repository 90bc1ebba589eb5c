import { approvalIdOf } from "toolreg";
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

const posts = () => jira.fake.requests.filter((request) => request.method === "POST");

describe("jira_transition_issue", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await jira.call("jira_transition_issue", { key: "PROJ-3", transitionId: "31" });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(jira.fake.requests).toEqual([]);
  });

  it("cannot take a status name: the input is a transition id, refused before anything is sent", async () => {
    for (const transitionId of ["Done", "In Progress", "31; DROP", "", "12345678901"]) {
      const result = await jira.call("jira_transition_issue", { key: "PROJ-3", transitionId });
      expect(result.ok ? "ok" : result.error.code, transitionId).toBe("invalid_input");
    }
    expect(await jira.call("jira_transition_issue", { key: "PROJ-3", transitionId: 31 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(jira.fake.requests).toEqual([]);
  });

  it("reads the available transitions first and refuses an id not among them, listing the ids and names", async () => {
    // PROJ-4 is in To Do: 11 leads to To Do, so it is not available.
    const result = await jira.callApproved("jira_transition_issue", { key: "PROJ-4", transitionId: "11" });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "precondition_failed",
        retryable: false,
        message:
          'PROJ-4 does not allow transition 11 now; the transitions it allows (id "name" → status) are: 21 "Start progress" → In Progress; 31 "Done" → Done',
        details: {
          key: "PROJ-4",
          transitionId: "11",
          available: [
            { id: "21", name: "Start progress", to: "In Progress" },
            { id: "31", name: "Done", to: "Done" },
          ],
        },
      },
    });
    expect(jira.fake.requests).toMatchObject([
      { method: "GET", path: "/rest/api/3/issue/PROJ-4/transitions" },
    ]);
    expect(posts()).toEqual([]);
    expect(jira.site.issues.get("PROJ-4")?.status.name).toBe("To Do");
  });

  it("refuses a transition Jira lists as unavailable (isAvailable: false), posting nothing", async () => {
    const result = await jira.callApproved("jira_transition_issue", { key: "PROJ-4", transitionId: "91" });
    expect(result).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", details: { transitionId: "91" } },
    });
    if (!result.ok) expect(result.error.message).not.toMatch(/Archive/);
    expect(posts()).toEqual([]);
  });

  it("says a person must make a transition whose screen or validator Jira's 400 names", async () => {
    // PROJ-1 is a bug: its Done asks for a resolution, which the tool has no input for.
    const result = await jira.callApproved("jira_transition_issue", { key: "PROJ-1", transitionId: "31" });
    expect(result).toMatchObject({
      ok: false,
      error: {
        code: "precondition_failed",
        retryable: false,
        message:
          'Jira refused transition 31 "Done" of PROJ-1 (Jira said: resolution: Resolution is required.): it asks for fields on its screen or a validator\'s condition, which this tool cannot give, so a person must make this transition in Jira (if the issue changed meanwhile, list its transitions again with jira_list_transitions)',
      },
    });
    expect(posts()).toHaveLength(1);
    expect(jira.site.issues.get("PROJ-1")?.status.name).toBe("To Do");
  });

  it("POSTs an available transition by id, with a markdown comment as ADF", async () => {
    const result = await jira.callApproved("jira_transition_issue", {
      key: "PROJ-5",
      transitionId: "31",
      comment: "Fixed in **v2.1**",
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(posts()).toMatchObject([
      {
        path: "/rest/api/3/issue/PROJ-5/transitions",
        body: {
          transition: { id: "31" },
          update: {
            comment: [
              {
                add: {
                  body: {
                    type: "doc",
                    version: 1,
                    content: [
                      {
                        type: "paragraph",
                        content: [
                          { type: "text", text: "Fixed in " },
                          { type: "text", text: "v2.1", marks: [{ type: "strong" }] },
                        ],
                      },
                    ],
                  },
                },
              },
            ],
          },
        },
      },
    ]);
    expect(result.content).toBe('Moved PROJ-5 by "Done" to Done: https://acme.atlassian.net/browse/PROJ-5');
    expect(result.data).toMatchObject({ key: "PROJ-5", transitionId: "31", status: "Done" });
    expect(jira.site.issues.get("PROJ-5")?.status.name).toBe("Done");
    expect(jira.site.issues.get("PROJ-5")?.comments).toHaveLength(1);
  });
});
