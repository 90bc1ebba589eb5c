import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type JiraHarness, startJiraHarness } from "../fake/jira-harness.js";

let jira: JiraHarness;
beforeAll(async () => {
  jira = await startJiraHarness({ maxPages: 3 });
});
afterEach(() => {
  jira.fake.requests.length = 0;
  jira.site.pageCap = 100;
});
afterAll(() => jira.close());

describe("jira_list_projects", () => {
  it("GETs /rest/api/3/project/search and lists each project's key, name and type", async () => {
    const result = await jira.call("jira_list_projects", {});
    if (!result.ok) throw new Error(result.error.message);
    expect(jira.fake.requests).toMatchObject([
      {
        method: "GET",
        path: "/rest/api/3/project/search",
        query: { startAt: "0", maxResults: "50", orderBy: "key" },
      },
    ]);
    expect(result.data).toMatchObject({ complete: true });
    expect((result.data as { projects: unknown[] }).projects).toHaveLength(7);
    expect(result.content).toContain(
      "7 projects:\nPROJ: Proj project (software)\nOPS: Ops project (software)",
    );
  });

  it("passes the filter as Jira's query", async () => {
    const result = await jira.call("jira_list_projects", { query: "ops" });
    expect(jira.fake.requests[0]?.query).toMatchObject({ query: "ops" });
    expect(result).toMatchObject({ ok: true, data: { projects: [{ key: "OPS", id: "10001" }] } });
  });

  it("pages by startAt until isLast, and stops at the page bound saying there are more", async () => {
    jira.site.pageCap = 2;
    const bounded = await jira.call("jira_list_projects", {});
    expect(jira.fake.requests.map((request) => request.query.startAt)).toEqual(["0", "2", "4"]);
    expect(bounded).toMatchObject({ ok: true, data: { complete: false } });
    if (bounded.ok) expect(bounded.content).toContain("The first 6 projects; there are more");

    jira.fake.requests.length = 0;
    jira.site.pageCap = 3;
    const whole = await jira.call("jira_list_projects", { limit: 7 });
    expect(jira.fake.requests.map((request) => request.query.startAt)).toEqual(["0", "3", "6"]);
    expect(whole).toMatchObject({ ok: true, data: { complete: true } });
  });

  it("refuses a hostile filter before sending anything", async () => {
    for (const query of ["a\nb", "\u0007", "x".repeat(101)]) {
      expect(await jira.call("jira_list_projects", { query })).toMatchObject({
        ok: false,
        error: { code: "invalid_input" },
      });
    }
    expect(jira.fake.requests).toEqual([]);
  });
});
