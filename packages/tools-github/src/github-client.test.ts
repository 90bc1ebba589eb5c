import { createExecutionContext, type ToolContext } from "toolreg";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeRoutes, type GithubFake, startGithubFake } from "./fake/github-fake.js";
import { graphqlRoutes } from "./fake/graphql-routes.js";
import { issueRoutesOver } from "./fake/issues-routes.js";
import { seedIssueStore } from "./fake/issues-store.js";
import { checkAgainstOpenApi } from "./fake/openapi-check.js";
import { type ProjectsWorld, seedProjectsWorld } from "./fake/projects-world.js";
import { createGithubClient, type GithubCall } from "./github-client.js";

/** The plugin spaces one caller's writes 1 s apart; a request not held behind another arrives well inside this. */
const TOGETHER_MS = 400;
const PACED_MS = 900;

/** When each request reached the fake, and whose token it carried. */
const arrivals: { token: string; method: string; path: string; at: number }[] = [];
const recordArrivals: FakeRoutes = (app) =>
  app.use("*", async (c, next) => {
    const token = c.req.header("authorization") ?? "";
    arrivals.push({ token, method: c.req.method, path: new URL(c.req.url).pathname, at: Date.now() });
    await next();
  });

let fake: GithubFake;
let host: ReturnType<typeof createToolkitHost>;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld();
  fake = await startGithubFake({
    routes: [recordArrivals, issueRoutesOver(seedIssueStore()), graphqlRoutes(world)],
    check: checkAgainstOpenApi,
  });
  host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  // The fake's first answers load GitHub's descriptions, holding this process's event loop for seconds:
  // paid here, so the timings below measure the pacing alone.
  const warm = client()(contextOf("warm-up"));
  await retitle(warm, "warm");
  await warm.graphql(OWNER_QUERY, { login: "octo-org" }, "octo-org");
});
afterAll(async () => {
  await host.close();
  await fake.close();
  expect(fake.checkFailures).toEqual([]);
});

/** The client as `bind` builds it: egress injects the token the caller's principal resolves to. */
function client(maxCallers?: number): (context: ToolContext) => GithubCall {
  const egress = host.egress({
    hosts: ["127.0.0.1"],
    credential: { header: "authorization", scheme: "Bearer", credentialRef: "github" },
  });
  return createGithubClient({ baseUrl: fake.url, egress, maxCallers });
}

function contextOf(principalId: string): ToolContext {
  const credentials = {
    resolve: async (_ref: string, scope: { principalId: string }) => `token-${scope.principalId}`,
  };
  const context = createExecutionContext({
    tenantId: "t1",
    principalId,
    runId: "run-1",
    toolCallId: `call-${principalId}`,
    credentials,
  });
  return {
    ...context,
    signal: new AbortController().signal,
    deadline: Date.now() + 30_000,
    idempotencyKey: undefined,
    approvalId: undefined,
  };
}

const retitle = (github: GithubCall, title: string) =>
  github.request(
    "PATCH /repos/{owner}/{repo}/issues/{issue_number}",
    { owner: "octocat", repo: "hello-world", issue_number: 1, title },
    "octocat/hello-world#1",
  );

/** When the fake saw `principal`'s requests to `path`, in order. */
const seen = (principal: string, path: string) =>
  arrivals.filter((a) => a.token === `Bearer token-${principal}` && a.path === path).map((a) => a.at);

const ISSUE = "/repos/octocat/hello-world/issues/1";
const OWNER_QUERY = "query Owner($login: String!) { repositoryOwner(login: $login) { login } }";

describe("GitHub's pacing per caller", () => {
  it("sends two callers' writes together and spaces one caller's writes a second apart", async () => {
    const github = client();
    const alice = github(contextOf("alice"));
    const bob = github(contextOf("bob"));
    await Promise.all([retitle(alice, "a1"), retitle(alice, "a2"), retitle(bob, "b1"), retitle(bob, "b2")]);
    const [alice1, alice2] = seen("alice", ISSUE) as [number, number];
    const [bob1, bob2] = seen("bob", ISSUE) as [number, number];
    expect(Math.abs(bob1 - alice1)).toBeLessThan(TOGETHER_MS);
    expect(alice2 - alice1).toBeGreaterThanOrEqual(PACED_MS);
    expect(bob2 - bob1).toBeGreaterThanOrEqual(PACED_MS);
  });

  it("does not hold a GraphQL query behind the caller's write, and paces a mutation as one", async () => {
    const carol = client()(contextOf("carol"));
    const ownerId = world.accounts[0]?.id;
    await Promise.all([
      retitle(carol, "c1"),
      carol.graphql(OWNER_QUERY, { login: "octo-org" }, "octo-org"),
      carol.graphql(
        'mutation Create($ownerId: ID!) { createProjectV2(input: { ownerId: $ownerId, title: "Paced" }) { projectV2 { id } } }',
        { ownerId },
        "a new project",
      ),
    ]);
    const [write] = seen("carol", ISSUE) as [number];
    const [first, second] = seen("carol", "/graphql") as [number, number];
    expect(first - write).toBeLessThan(TOGETHER_MS);
    expect(second - write).toBeGreaterThanOrEqual(PACED_MS);
    expect(world.projects.some((project) => project.title === "Paced")).toBe(true);
  });

  it("keeps a caller's pace when its Octokit was dropped from the bounded map", async () => {
    const github = client(1);
    await retitle(github(contextOf("dave")), "d1");
    await retitle(github(contextOf("erin")), "e1");
    await retitle(github(contextOf("dave")), "d2");
    const [dave1, dave2] = seen("dave", ISSUE) as [number, number];
    const [erin1] = seen("erin", ISSUE) as [number];
    expect(erin1 - dave1).toBeLessThan(TOGETHER_MS);
    expect(dave2 - dave1).toBeGreaterThanOrEqual(PACED_MS);
  });
});
