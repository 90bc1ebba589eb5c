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

describe("jira_list_transitions", () => {
  it("GETs the issue's transitions and gives each id with its name and target status", async () => {
    const result = await jira.call("jira_list_transitions", { key: "PROJ-2" });
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      { method: "GET", path: "/rest/api/3/issue/PROJ-2/transitions" },
    ]);
    expect(result.data).toEqual({
      key: "PROJ-2",
      transitions: [
        { id: "21", name: "Start progress", to: "In Progress", toCategory: "indeterminate" },
        { id: "31", name: "Done", to: "Done", toCategory: "done" },
      ],
    });
    expect(result.content).toContain(
      'PROJ-2 allows these transitions (id "name" → status):\n21 "Start progress" → In Progress\n31 "Done" → Done',
    );
  });

  it("says when the issue is not there, and refuses a key that is not one before sending anything", async () => {
    expect(await jira.call("jira_list_transitions", { key: "OPS-77" })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", details: { status: 404 } },
    });
    jira.fake.requests.length = 0;
    expect(await jira.call("jira_list_transitions", { key: "OPS-1/transitions" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(jira.fake.requests).toEqual([]);
  });
});
