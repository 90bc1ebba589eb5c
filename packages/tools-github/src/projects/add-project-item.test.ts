import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "../fake/graphql-routes.js";
import { type ProjectsWorld, seedProjectsWorld } from "../fake/projects-world.js";

let gh: GithubHarness;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld();
  gh = await startGithubHarness([graphqlRoutes(world)]);
});
afterAll(() => gh.close());

const roadmap = () => world.projects.find((project) => project.title === "Roadmap");
const content = (number: number) => world.contents.find((candidate) => candidate.number === number);
const item = (projectOwner: string, projectNumber: number, number: number) => ({
  project_owner: projectOwner,
  project_number: projectNumber,
  owner: "octo-org",
  repo: "roadmap",
  issue_number: number,
});

describe("github_add_project_item", () => {
  it("looks up the project's and the issue's node ids in one query, then adds the issue by them", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.callApproved("github_add_project_item", item("octo-org", 1, 3));
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map(({ operation, variables }) => ({ operation, variables })),
    ).toEqual([
      {
        operation: "ProjectItemTarget",
        variables: {
          projectOwner: "octo-org",
          projectNumber: 1,
          owner: "octo-org",
          repo: "roadmap",
          number: 3,
        },
      },
      { operation: "AddProjectItem", variables: { projectId: roadmap()?.id, contentId: content(3)?.id } },
    ]);
    expect(result).toEqual({
      ok: true,
      content: expect.any(String),
      data: {
        project: {
          owner: "octo-org",
          number: 1,
          title: "Roadmap",
          url: "https://github.com/orgs/octo-org/projects/1",
        },
        item: {
          type: "ISSUE",
          number: 3,
          title: "Issue 3",
          repository: "octo-org/roadmap",
          url: "https://github.com/octo-org/roadmap/issues/3",
        },
        alreadyInProject: false,
      },
      provenance: { source: "https://github.com/octo-org/roadmap/issues/3", trusted: false },
    });
    expect(roadmap()?.items.some((candidate) => candidate.content === content(3))).toBe(true);
  });

  it("adds a pull request the same way", async () => {
    const result = await gh.callApproved("github_add_project_item", item("octo-org", 3, 10));
    expect(result.ok && result.data).toMatchObject({
      item: { type: "PULL_REQUEST", number: 10 },
      alreadyInProject: false,
    });
    const hiring = world.projects.find((project) => project.title === "Hiring");
    expect(hiring?.items.map((candidate) => candidate.content)).toEqual([content(10)]);
  });

  it("writes nothing for an issue already in the project, and says it was there", async () => {
    const before = graphqlOperations(gh.fake).length;
    const count = roadmap()?.items.length;
    const result = await gh.callApproved("github_add_project_item", item("octo-org", 1, 1));
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map((operation) => operation.kind),
    ).toEqual(["query"]);
    expect(roadmap()?.items.length).toBe(count);
    expect(result.ok && result.data).toMatchObject({ item: { number: 1 }, alreadyInProject: true });
  });

  it("names GitHub's NOT_FOUND for an issue number that does not resolve, and adds nothing", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.callApproved("github_add_project_item", item("octo-org", 1, 404));
    expect(graphqlOperations(gh.fake).slice(before)).toHaveLength(1);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(
      /^GitHub found no project 1 of octo-org or octo-org\/roadmap#404: Could not resolve to an issue or pull request with the number of 404\./,
    );
    expect(result.error.details?.graphqlErrors).toEqual([
      {
        type: "NOT_FOUND",
        path: ["repository", "issueOrPullRequest"],
        message: "Could not resolve to an issue or pull request with the number of 404.",
      },
    ]);
  });

  it("refuses hostile names before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [
      { ...item("octo-org", 1, 3), repo: "roadmap/../../x" },
      { ...item("octo-org", 1, 3), project_owner: "octo-org?type=user" },
      { ...item("octo-org", 1, 3), issue_number: 0 },
    ]) {
      const result = await gh.seam.call(gh.context(), "github_add_project_item", input);
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
