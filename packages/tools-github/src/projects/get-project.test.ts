import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "../fake/graphql-routes.js";
import { fieldNamed, type ProjectsWorld, seedProjectsWorld } from "../fake/projects-world.js";

let gh: GithubHarness;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld({ backlogItems: 150 });
  gh = await startGithubHarness([graphqlRoutes(world)], { maxItems: 250 });
});
afterAll(() => gh.close());

const roadmap = () =>
  world.projects.find((project) => project.title === "Roadmap") as ProjectsWorld["projects"][number];

// biome-ignore lint/suspicious/noExplicitAny: the tool's output, read field by field.
type ProjectOutput = { fields: any[]; items: any[]; complete: boolean; itemCount: number };

/** The lines of an untrusted answer inside the seam's fence (its opening line, its warning, its closing line). */
function fenced(content: string): string[] {
  const lines = content.split("\n");
  expect(lines[0]).toMatch(/^<untrusted-content id="[0-9a-f]+" source="/);
  expect(lines.at(-1)).toMatch(/^<\/untrusted-content id="[0-9a-f]+">$/);
  return lines.slice(2, -1);
}

describe("github_get_project", () => {
  it("POSTs one GetProject query and returns the fields with their option and iteration ids, and every kind of item", async () => {
    const result = await gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number: 1 });
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(graphqlOperations(gh.fake).at(-1)).toMatchObject({
      operation: "GetProject",
      variables: { login: "octo-org", number: 1, first: 100 },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBeFalsy();
    expect(result.provenance).toEqual({
      source: "https://github.com/orgs/octo-org/projects/1",
      trusted: false,
    });
    const data = result.data as ProjectOutput;
    expect(data).toMatchObject({
      owner: "octo-org",
      number: 1,
      title: "Roadmap",
      closed: false,
      shortDescription: "What we ship this quarter",
      itemCount: 5,
      complete: true,
    });
    expect(fenced(result.content)).toEqual([
      'Project 1 of octo-org: "Roadmap" — https://github.com/orgs/octo-org/projects/1',
      "What we ship this quarter",
      "Fields: Title (title); Assignees (assignees); Status (single select: Todo, In Progress, Done); Labels (labels); Milestone (milestone); Repository (repository); Notes (text); Estimate (number); Due (date); Sprint (iteration: Sprint 2 from 2024-04-15; Sprint 3 from 2024-04-29; Sprint 1 from 2024-04-01, completed)",
      "5 items:",
      '- issue octo-org/roadmap#1 "Issue 1" (open) — Status: In Progress; Notes: Needs a design review; Estimate: 3; Due: 2024-05-20; Sprint: Sprint 2',
      '- issue octo-org/roadmap#2 "Issue 2" (open) — Status: Todo',
      '- pull request octo-org/roadmap#10 "Pull request 10" (open) — Status: Done',
      '- draft "Write the launch post"',
      "- an item this credential may not see (REDACTED)",
    ]);
    const status = fieldNamed(roadmap(), "Status");
    const sprint = fieldNamed(roadmap(), "Sprint");
    expect(data.fields.find((field) => field.name === "Status")).toEqual({
      name: "Status",
      type: "SINGLE_SELECT",
      id: status.id,
      options: status.options?.map(({ id, name }) => ({ id, name })),
    });
    expect(data.fields.find((field) => field.name === "Sprint")).toEqual({
      name: "Sprint",
      type: "ITERATION",
      id: sprint.id,
      iterations: [
        {
          id: sprint.iterations?.active[0]?.id,
          title: "Sprint 2",
          startDate: "2024-04-15",
          duration: 14,
          completed: false,
        },
        {
          id: sprint.iterations?.active[1]?.id,
          title: "Sprint 3",
          startDate: "2024-04-29",
          duration: 14,
          completed: false,
        },
        {
          id: sprint.iterations?.completed[0]?.id,
          title: "Sprint 1",
          startDate: "2024-04-01",
          duration: 14,
          completed: true,
        },
      ],
    });
    expect(data.fields.map((field) => [field.name, field.type])).toEqual([
      ["Title", "TITLE"],
      ["Assignees", "ASSIGNEES"],
      ["Status", "SINGLE_SELECT"],
      ["Labels", "LABELS"],
      ["Milestone", "MILESTONE"],
      ["Repository", "REPOSITORY"],
      ["Notes", "TEXT"],
      ["Estimate", "NUMBER"],
      ["Due", "DATE"],
      ["Sprint", "ITERATION"],
    ]);
    expect(data.items).toEqual([
      {
        type: "ISSUE",
        number: 1,
        title: "Issue 1",
        state: "OPEN",
        repository: "octo-org/roadmap",
        url: "https://github.com/octo-org/roadmap/issues/1",
        archived: false,
        fields: {
          Status: "In Progress",
          Notes: "Needs a design review",
          Estimate: 3,
          Due: "2024-05-20",
          Sprint: "Sprint 2",
        },
      },
      expect.objectContaining({ type: "ISSUE", number: 2, fields: { Status: "Todo" } }),
      expect.objectContaining({
        type: "PULL_REQUEST",
        number: 10,
        url: "https://github.com/octo-org/roadmap/pull/10",
        fields: { Status: "Done" },
      }),
      { type: "DRAFT_ISSUE", title: "Write the launch post", archived: false, fields: {} },
      { type: "REDACTED", archived: false, fields: {} },
    ]);
  });

  it("follows the items' cursors to the limit, asking each page only for what is still wanted", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.seam.call(gh.context(), "github_get_project", {
      owner: "octo-org",
      number: 6,
      limit: 120,
    });
    const sent = graphqlOperations(gh.fake).slice(before);
    expect(sent.map((operation) => [operation.operation, operation.variables.first])).toEqual([
      ["GetProject", 100],
      ["GetProjectItems", 20],
    ]);
    expect(sent[1]?.variables.after).toEqual(expect.any(String));
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    const data = result.data as ProjectOutput;
    expect(data.itemCount).toBe(150);
    expect(data.items.map((item) => item.number)).toEqual(
      Array.from({ length: 120 }, (_, index) => 100 + index),
    );
    expect(data.complete).toBe(false);
    expect(fenced(result.content)[2]).toMatch(/^the first 120 items; there are more/);
  });

  it("reads a whole project in as many pages as it takes, and says it is whole", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number: 6 });
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map((operation) => operation.variables.first),
    ).toEqual([100, 100]);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBeFalsy();
    expect((result.data as ProjectOutput).items).toHaveLength(150);
    expect((result.data as ProjectOutput).complete).toBe(true);
    expect(fenced(result.content)[2]).toBe("150 items:");
  });

  it("cuts a long text value and says so", async () => {
    const item = roadmap().items[1];
    const notes = fieldNamed(roadmap(), "Notes");
    item?.values.set(notes.id, { text: "x".repeat(1500) });
    try {
      const result = await gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number: 1 });
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      expect(result.truncated).toBe(true);
      const data = result.data as ProjectOutput;
      expect(data.items[1].fields.Notes).toHaveLength(1000);
      expect(fenced(result.content)[3]).toBe("5 items; text values longer than 1000 characters are cut:");
    } finally {
      item?.values.delete(notes.id);
    }
  });

  it("says a project GitHub cannot resolve may not exist or may be out of the credential's reach", async () => {
    const result = await gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number: 99 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(result.error.message).toBe(
      "GitHub found no project 99 of octo-org: Could not resolve to a ProjectV2 with the number 99. It does not exist, or this credential has no access to it (GitHub answers NOT_FOUND for both); check the owner, names and numbers",
    );
  });

  it("refuses a project number that is not a positive integer before any request", async () => {
    const before = gh.fake.requests.length;
    for (const number of [0, -1, 1.5, "1"]) {
      const result = await gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
