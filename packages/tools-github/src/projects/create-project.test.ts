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

const org = () => world.accounts.find((account) => account.login === "octo-org");

describe("github_create_project", () => {
  it("parks for approval and sends nothing until approved", async () => {
    const before = gh.fake.requests.length;
    const result = await gh.seam.call(gh.context(), "github_create_project", {
      owner: "octo-org",
      title: "Q3",
    });
    expect(result.ok || result.error.code).toBe("approval_required");
    expect(gh.fake.requests.length).toBe(before);
  });

  it("looks up the owner's node id, then creates the project with it", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.callApproved("github_create_project", { owner: "octo-org", title: "  Q3 plan " });
    expect(gh.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    const sent = graphqlOperations(gh.fake).slice(before);
    expect(sent.map(({ operation, kind, variables }) => ({ operation, kind, variables }))).toEqual([
      { operation: "ProjectOwnerId", kind: "query", variables: { login: "octo-org" } },
      { operation: "CreateProject", kind: "mutation", variables: { ownerId: org()?.id, title: "Q3 plan" } },
    ]);
    expect(result).toMatchObject({
      ok: true,
      data: {
        owner: "octo-org",
        number: 7,
        title: "Q3 plan",
        url: "https://github.com/orgs/octo-org/projects/7",
        linkedRepository: null,
      },
    });
    const made = world.projects.find((project) => project.title === "Q3 plan");
    expect(made?.fields.map((field) => field.name)).toContain("Status");
    expect(made?.repositories).toEqual([]);
  });

  it("links a repository of the owner when asked, by the repository's node id", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.callApproved("github_create_project", {
      owner: "octo-org",
      title: "Roadmap 2",
      repo: "roadmap",
    });
    const repository = world.repositories.find((repo) => repo.name === "roadmap");
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map(({ operation, variables }) => ({ operation, variables })),
    ).toEqual([
      { operation: "ProjectOwnerAndRepositoryIds", variables: { login: "octo-org", repo: "roadmap" } },
      {
        operation: "CreateProject",
        variables: { ownerId: org()?.id, title: "Roadmap 2", repositoryId: repository?.id },
      },
    ]);
    expect(result).toMatchObject({
      ok: true,
      data: { title: "Roadmap 2", linkedRepository: "octo-org/roadmap" },
    });
    expect(world.projects.find((project) => project.title === "Roadmap 2")?.repositories).toEqual([
      repository,
    ]);
  });

  it("creates nothing when the repository to link does not resolve, and says so", async () => {
    const before = graphqlOperations(gh.fake).length;
    const count = world.projects.length;
    const result = await gh.callApproved("github_create_project", {
      owner: "octo-org",
      title: "X",
      repo: "nope",
    });
    expect(
      graphqlOperations(gh.fake)
        .slice(before)
        .map((operation) => operation.operation),
    ).toEqual(["ProjectOwnerAndRepositoryIds"]);
    expect(world.projects.length).toBe(count);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(
      /^GitHub found no account octo-org or repository octo-org\/nope: Could not resolve to a Repository with the name 'octo-org\/nope'\. It does not exist, or this credential has no access/,
    );
  });

  it("names the scope a token without `project` lacks when GitHub refuses the mutation", async () => {
    world.token.scopes = ["repo", "read:project"];
    try {
      const result = await gh.callApproved("github_create_project", { owner: "octo-org", title: "Scoped" });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toMatchObject({
        code: "upstream_error",
        retryable: false,
        details: { scopesNeeded: ["project"], scopesGranted: "repo, read:project" },
      });
      expect(result.error.message).toBe(
        "GitHub refused a new project of octo-org: the credential lacks the OAuth scope project (it has: repo, read:project); the deployment must connect GitHub again with project granted",
      );
    } finally {
      world.token.scopes = ["repo", "project"];
    }
  });

  it("refuses an empty or overlong title before any request", async () => {
    const before = gh.fake.requests.length;
    for (const title of ["", "   ", "x".repeat(257)]) {
      const result = await gh.seam.call(gh.context(), "github_create_project", { owner: "octo-org", title });
      expect(result.ok || result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
