import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness, TEST_TOKEN } from "../fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "../fake/graphql-routes.js";
import { seedProjectsWorld } from "../fake/projects-world.js";

let gh: GithubHarness;
beforeAll(async () => {
  gh = await startGithubHarness([graphqlRoutes(seedProjectsWorld())], { maxItems: 50 });
});
afterAll(() => gh.close());

/** The lines of an untrusted answer inside the seam's fence (its opening line, its warning, its closing line). */
function fenced(content: string): string[] {
  const lines = content.split("\n");
  expect(lines[0]).toMatch(/^<untrusted-content id="[0-9a-f]+" source="/);
  expect(lines.at(-1)).toMatch(/^<\/untrusted-content id="[0-9a-f]+">$/);
  return lines.slice(2, -1);
}

describe("github_list_projects", () => {
  it("POSTs one ListProjects query with the credential egress injected, and lists the projects newest first", async () => {
    const result = await gh.seam.call(gh.context(), "github_list_projects", { owner: "octo-org" });
    const sent = gh.fake.requests.at(-1);
    expect(sent?.method).toBe("POST");
    expect(sent?.path).toBe("/graphql");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(graphqlOperations(gh.fake).at(-1)).toMatchObject({
      operation: "ListProjects",
      variables: { login: "octo-org", first: 50, after: null },
    });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBeFalsy();
    expect(result.provenance).toEqual({ source: "https://github.com/octo-org", trusted: false });
    expect(result.data).toMatchObject({ owner: "octo-org", ownerType: "Organization", complete: true });
    expect(fenced(result.content)).toEqual([
      "octo-org (an organisation): 6 projects:",
      '- #6 "Backlog", 0 items — https://github.com/orgs/octo-org/projects/6',
      '- #5 "Docs", 0 items — https://github.com/orgs/octo-org/projects/5',
      '- #4 "Security review", 0 items — https://github.com/orgs/octo-org/projects/4',
      '- #3 "Hiring", 0 items — https://github.com/orgs/octo-org/projects/3',
      '- #2 "Launch" (closed), 0 items — https://github.com/orgs/octo-org/projects/2',
      '- #1 "Roadmap", 5 items — https://github.com/orgs/octo-org/projects/1',
    ]);
    const { projects } = result.data as { projects: Record<string, unknown>[] };
    expect(projects.map((project) => [project.number, project.title, project.closed])).toEqual([
      [6, "Backlog", false],
      [5, "Docs", false],
      [4, "Security review", false],
      [3, "Hiring", false],
      [2, "Launch", true],
      [1, "Roadmap", false],
    ]);
    expect(projects.at(-1)).toEqual({
      number: 1,
      title: "Roadmap",
      url: "https://github.com/orgs/octo-org/projects/1",
      closed: false,
      items: 5,
      updatedAt: "2024-05-01T09:00:00Z",
    });
  });

  it("asks for no more than the limit, in one page, and says more exist", async () => {
    const before = graphqlOperations(gh.fake).length;
    const result = await gh.seam.call(gh.context(), "github_list_projects", { owner: "octo-org", limit: 2 });
    const sent = graphqlOperations(gh.fake).slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]?.variables).toEqual({ login: "octo-org", first: 2, after: null });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.truncated).toBe(true);
    const data = result.data as { projects: { number: number }[]; complete: boolean };
    expect(data.projects.map((project) => project.number)).toEqual([6, 5]);
    expect(data.complete).toBe(false);
    expect(fenced(result.content)[0]).toMatch(
      /^octo-org \(an organisation\): the first 2 projects; there are more/,
    );
  });

  it("lists a user's projects the same way", async () => {
    const result = await gh.seam.call(gh.context(), "github_list_projects", { owner: "octocat" });
    expect(result.ok && result.data).toMatchObject({
      ownerType: "User",
      projects: [{ number: 1, title: "Personal", url: "https://github.com/users/octocat/projects/1" }],
    });
  });

  it("says GitHub knows no such account when the owner is unknown", async () => {
    const result = await gh.seam.call(gh.context(), "github_list_projects", { owner: "no-such-org" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(/no account no-such-org/);
  });

  it("refuses a hostile owner and a limit past the bound before any request", async () => {
    const before = gh.fake.requests.length;
    for (const input of [{ owner: "octo-org/../../graphql" }, { owner: "octo-org", limit: 0 }]) {
      const result = await gh.seam.call(gh.context(), "github_list_projects", input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    expect(gh.fake.requests.length).toBe(before);
  });
});
