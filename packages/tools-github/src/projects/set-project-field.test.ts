import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "../fake/graphql-routes.js";
import {
  type FakeProject,
  fieldNamed,
  iterationTitled,
  optionNamed,
  type ProjectsWorld,
  seedProjectsWorld,
} from "../fake/projects-world.js";

let gh: GithubHarness;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld();
  gh = await startGithubHarness([graphqlRoutes(world)]);
});
afterAll(() => gh.close());

const roadmap = () => world.projects.find((project) => project.title === "Roadmap") as FakeProject;
const itemOf = (number: number) =>
  roadmap().items.find(
    (item) => typeof item.content === "object" && "number" in item.content && item.content.number === number,
  );
const storedValue = (number: number, field: string) =>
  itemOf(number)?.values.get(fieldNamed(roadmap(), field).id);
const set = (number: number, field: string, value: string | number) =>
  gh.callApproved("github_set_project_field", {
    project_owner: "octo-org",
    project_number: 1,
    owner: "octo-org",
    repo: "roadmap",
    issue_number: number,
    field,
    value,
  });

/** The operations sent while `run` ran. */
async function sentDuring<T>(run: () => Promise<T>) {
  const before = graphqlOperations(gh.fake).length;
  const result = await run();
  return { result, sent: graphqlOperations(gh.fake).slice(before) };
}

describe("github_set_project_field", () => {
  it("sets a single-select field by the option's name, sending the ids it looked up", async () => {
    const { result, sent } = await sentDuring(() => set(2, "Status", "Done"));
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent.map(({ operation, variables }) => ({ operation, variables }))).toEqual([
      {
        operation: "ProjectItemTarget",
        variables: {
          projectOwner: "octo-org",
          projectNumber: 1,
          owner: "octo-org",
          repo: "roadmap",
          number: 2,
        },
      },
      {
        operation: "SetProjectField",
        variables: {
          projectId: roadmap().id,
          itemId: itemOf(2)?.id,
          fieldId: fieldNamed(roadmap(), "Status").id,
          value: { singleSelectOptionId: optionNamed(fieldNamed(roadmap(), "Status"), "Done").id },
        },
      },
    ]);
    expect(result).toMatchObject({
      ok: true,
      data: {
        project: { owner: "octo-org", number: 1, title: "Roadmap" },
        item: { type: "ISSUE", number: 2, repository: "octo-org/roadmap" },
        field: "Status",
        value: "Done",
      },
      provenance: { source: "https://github.com/octo-org/roadmap/issues/2", trusted: false },
    });
    expect(storedValue(2, "Status")).toEqual({
      optionId: optionNamed(fieldNamed(roadmap(), "Status"), "Done").id,
    });
  });

  it("finds a field and an option named in another case, and reports their real names", async () => {
    const result = await set(2, "status", "in progress");
    expect(result.ok && result.data).toMatchObject({ field: "Status", value: "In Progress" });
    expect(storedValue(2, "Status")).toEqual({
      optionId: optionNamed(fieldNamed(roadmap(), "Status"), "In Progress").id,
    });
  });

  it("sets an iteration by its title (a completed one too), a date, a number given as text, and a text", async () => {
    const sprint = fieldNamed(roadmap(), "Sprint");
    const cases = [
      {
        field: "Sprint",
        value: "Sprint 1",
        sent: { iterationId: iterationTitled(sprint, "Sprint 1").id },
        shown: "Sprint 1",
      },
      { field: "Due", value: "2024-06-01", sent: { date: "2024-06-01" }, shown: "2024-06-01" },
      { field: "Estimate", value: "5.5", sent: { number: 5.5 }, shown: 5.5 },
      {
        field: "Notes",
        value: "Blocked on the API",
        sent: { text: "Blocked on the API" },
        shown: "Blocked on the API",
      },
    ];
    for (const { field, value, sent: expected, shown } of cases) {
      const { result, sent } = await sentDuring(() => set(10, field, value));
      expect(sent.at(-1)?.variables.value).toEqual(expected);
      expect(result).toMatchObject({ ok: true, data: { field, value: shown } });
    }
    expect(storedValue(10, "Sprint")).toEqual({ iterationId: iterationTitled(sprint, "Sprint 1").id });
    expect(storedValue(10, "Estimate")).toEqual({ number: 5.5 });
  });

  it("refuses an unknown option naming the valid ones, and writes nothing", async () => {
    const { result, sent } = await sentDuring(() => set(1, "Status", "Blocked"));
    expect(sent.map((operation) => operation.kind)).toEqual(["query"]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({
      code: "invalid_input",
      message: '"Blocked" is not an option of Status; its options: Todo; In Progress; Done',
      details: { valid: ["Todo", "In Progress", "Done"] },
    });
  });

  it("refuses an unknown iteration, field, or a field that belongs to the issue, naming what can be set", async () => {
    const refusals = [
      [
        () => set(1, "Sprint", "Sprint 9"),
        /^"Sprint 9" is not an iteration of Sprint; its iterations: Sprint 2 \(from 2024-04-15\); Sprint 3 \(from 2024-04-29\); Sprint 1 \(from 2024-04-01\)$/,
      ],
      [
        () => set(1, "Priority", "High"),
        /^the project has no field "Priority"; fields you can set: Status \(single select: Todo, In Progress, Done\); Notes \(text\); Estimate \(number\); Due \(date\); Sprint \(iteration\)$/,
      ],
      [
        () => set(1, "Assignees", "octocat"),
        /^Assignees \(assignees\) cannot be set on a project item: assignees, labels, milestone, repository and title belong to the issue or pull request itself/,
      ],
      [
        () => set(1, "Due", "2024-02-30"),
        /^Due is a date field and takes a date as YYYY-MM-DD, not "2024-02-30"$/,
      ],
      [() => set(1, "Estimate", "five"), /^Estimate is a number field and "five" is not a number$/],
    ] as const;
    for (const [call, message] of refusals) {
      const result = await call();
      expect(result.ok).toBe(false);
      if (result.ok) continue;
      expect(result.error.code).toBe("invalid_input");
      expect(result.error.message).toMatch(message);
    }
    expect(
      graphqlOperations(gh.fake).some(
        (operation) =>
          operation.operation === "SetProjectField" && operation.variables.itemId === itemOf(1)?.id,
      ),
    ).toBe(false);
  });

  it("refuses an issue that is not in the project, pointing to github_add_project_item", async () => {
    const { result, sent } = await sentDuring(() => set(4, "Status", "Todo"));
    expect(sent).toHaveLength(1);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toBe(
      'octo-org/roadmap#4 is not an item of project 1 of octo-org ("Roadmap"); add it first with github_add_project_item',
    );
  });

  it("refuses a value that is neither text nor a finite number, or too long, before any request", async () => {
    const before = gh.fake.requests.length;
    for (const value of [null, true, { optionId: "x" }, "x".repeat(1025)]) {
      const result = await gh.seam.call(gh.context(), "github_set_project_field", {
        project_owner: "octo-org",
        project_number: 1,
        owner: "octo-org",
        repo: "roadmap",
        issue_number: 1,
        field: "Notes",
        value,
      });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
