import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "../fake/graphql-routes.js";
import {
  type FakeProject,
  failNextField,
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
const input = (number: number) => ({
  project_owner: "octo-org",
  project_number: 1,
  owner: "octo-org",
  repo: "roadmap",
  issue_number: number,
});

describe("github_remove_project_item", () => {
  it("is destructive: it parks for approval and sends nothing until approved", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_remove_project_item", input(1));
    expect(result.ok || result.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
    expect(gh.registry.get("github_remove_project_item")?.effect).toBe("destructive");
  });

  it("finds the issue's item in the project and deletes it by its id", async () => {
    const itemId = itemOf(1)?.id;
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.callApproved("github_remove_project_item", input(1));
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map(({ operation, kind, variables }) => ({ operation, kind, variables })),
    ).toEqual([
      {
        operation: "ProjectItemTarget",
        kind: "query",
        variables: {
          projectOwner: "octo-org",
          projectNumber: 1,
          owner: "octo-org",
          repo: "roadmap",
          number: 1,
        },
      },
      { operation: "RemoveProjectItem", kind: "mutation", variables: { projectId: roadmap().id, itemId } },
    ]);
    expect(result).toMatchObject({
      ok: true,
      data: { project: { number: 1, title: "Roadmap" }, item: { type: "ISSUE", number: 1 }, removed: true },
      provenance: { source: "https://github.com/octo-org/roadmap/issues/1", trusted: false },
    });
    expect(itemOf(1)).toBeUndefined();
  });

  it("refuses an issue that is not in the project, and deletes nothing", async () => {
    const before = graphqlOperations(gh.fake).length;
    const count = roadmap().items.length;
    const result = await gh.callApproved("github_remove_project_item", input(1));
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map((operation) => operation.kind),
    ).toEqual(["query"]);
    expect(roadmap().items.length).toBe(count);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("invalid_input");
    expect(result.error.message).toMatch(/^octo-org\/roadmap#1 is not an item of project 1 of octo-org/);
  });

  it("says GitHub forbade the deletion when the credential may read the project but not change it", async () => {
    failNextField(world, "deleteProjectV2Item", "FORBIDDEN", "Resource not accessible by integration");
    const result = await gh.callApproved("github_remove_project_item", input(2));
    expect(itemOf(2)).toBeDefined();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(result.error.message).toMatch(
      /^GitHub forbade removing octo-org\/roadmap#2 from project 1 of octo-org: Resource not accessible by integration; the credential's account lacks the permission/,
    );
    expect(result.error.details?.graphqlErrors).toEqual([
      { type: "FORBIDDEN", path: ["deleteProjectV2Item"], message: "Resource not accessible by integration" },
    ]);
  });
});
