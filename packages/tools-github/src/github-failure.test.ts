/**
 * GitHub's GraphQL failures as envelopes, through the real client (Octokit, its throttling plugin, egress)
 * against the fake. The bodies and headers injected are GitHub's, from
 * https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api and the
 * captures cited beside each case.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GithubHarness, startGithubHarness } from "./fake/github-harness.js";
import { graphqlOperations, graphqlRoutes } from "./fake/graphql-routes.js";
import { failNextField, type ProjectsWorld, seedProjectsWorld } from "./fake/projects-world.js";

let gh: GithubHarness;
let world: ProjectsWorld;
beforeAll(async () => {
  world = seedProjectsWorld();
  gh = await startGithubHarness([graphqlRoutes(world)]);
});
afterAll(() => gh.close());

const readProject = () => gh.seam.call(gh.context(), "github_get_project", { owner: "octo-org", number: 1 });
const inSeconds = (seconds: number) => String(Math.floor(Date.now() / 1000) + seconds);

/** The call's error, after checking exactly one GraphQL request was sent for it (nothing retried). */
async function failureOf(call: () => ReturnType<typeof readProject>) {
  const before = graphqlOperations(gh.fake).length;
  const result = await call();
  expect(graphqlOperations(gh.fake).length - before).toBe(1);
  if (result.ok) throw new Error("expected a failure");
  return result.error;
}

describe("GitHub's GraphQL rate limits", () => {
  it("a primary limit answered 200 with RATE_LIMITED waits for x-ratelimit-reset", async () => {
    gh.fake.failNext("POST", "/graphql", {
      status: 200,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": inSeconds(600),
        "x-ratelimit-resource": "graphql",
      },
      body: { errors: [{ type: "RATE_LIMITED", message: "API rate limit exceeded for user ID 1." }] },
    });
    const error = await failureOf(readProject);
    expect(error).toMatchObject({
      code: "upstream_rate_limited",
      retryable: true,
      details: { limit: "primary" },
    });
    expect(error.retryAfterMs).toBeGreaterThan(590_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(600_000);
    expect(error.message).toMatch(
      /^GitHub's GraphQL rate limit is spent \(5000 points an hour for this credential\); try again in \d+ s$/,
    );
  });

  it("a primary limit typed RATE_LIMIT, with x-ratelimit-remaining not yet 0, is read the same way", async () => {
    // Captured in yanyongyu/githubkit#271; octokit/plugin-throttling.js#632 notes the header may lag.
    gh.fake.failNext("POST", "/graphql", {
      status: 200,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "1",
        "x-ratelimit-reset": inSeconds(120),
      },
      body: {
        errors: [
          {
            type: "RATE_LIMIT",
            code: "graphql_rate_limit",
            message: "API rate limit already exceeded for user ID 1.",
          },
        ],
      },
    });
    const error = await failureOf(readProject);
    expect(error).toMatchObject({ code: "upstream_rate_limited", details: { limit: "primary" } });
    expect(error.retryAfterMs).toBeGreaterThan(110_000);
  });

  it("a primary limit answered 403 with x-ratelimit-remaining 0 waits for x-ratelimit-reset", async () => {
    gh.fake.failNext("POST", "/graphql", {
      status: 403,
      headers: {
        "x-ratelimit-limit": "5000",
        "x-ratelimit-remaining": "0",
        "x-ratelimit-reset": inSeconds(300),
      },
      body: {
        message: "API rate limit exceeded for user ID 1.",
        documentation_url:
          "https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api",
      },
    });
    const error = await failureOf(readProject);
    expect(error).toMatchObject({ code: "upstream_rate_limited", details: { limit: "primary" } });
    expect(error.retryAfterMs).toBeGreaterThan(290_000);
  });

  it("a secondary limit answered 403 waits retry-after", async () => {
    gh.fake.failNext("POST", "/graphql", {
      status: 403,
      headers: { "retry-after": "60" },
      body: {
        message: "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        documentation_url:
          "https://docs.github.com/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#secondary-rate-limits",
      },
    });
    const error = await failureOf(readProject);
    expect(error).toMatchObject({
      code: "upstream_rate_limited",
      retryable: true,
      retryAfterMs: 60_000,
      details: { limit: "secondary" },
    });
  });

  it("a secondary limit answered 200 with an error message waits retry-after, else a minute", async () => {
    const secondary = {
      errors: [
        {
          message:
            "You have exceeded a secondary rate limit. Please wait a few minutes before you try again.",
        },
      ],
    };
    gh.fake.failNext("POST", "/graphql", { status: 200, headers: { "retry-after": "30" }, body: secondary });
    expect(await failureOf(readProject)).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 30_000,
      details: { limit: "secondary" },
    });
    gh.fake.failNext("POST", "/graphql", { status: 200, body: secondary });
    expect(await failureOf(readProject)).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: 60_000,
    });
  });
});

describe("GitHub's GraphQL errors[]", () => {
  it("INSUFFICIENT_SCOPES names the scope to grant and the ones the token has", async () => {
    world.token.scopes = ["repo"];
    try {
      const error = await failureOf(readProject);
      expect(error).toMatchObject({
        code: "upstream_error",
        retryable: false,
        details: { scopesNeeded: ["read:project"], scopesGranted: "repo" },
      });
      expect(error.message).toBe(
        "GitHub refused project 1 of octo-org: the credential lacks the OAuth scope read:project (it has: repo); the deployment must connect GitHub again with read:project granted",
      );
    } finally {
      world.token.scopes = ["repo", "project"];
    }
  });

  it("VALIDATION (a value GitHub will not set) is the model's to change: invalid_input", async () => {
    failNextField(
      world,
      "updateProjectV2ItemFieldValue",
      "VALIDATION",
      "The single select option Id does not belong to the field",
    );
    const result = await gh.callApproved("github_set_project_field", {
      project_owner: "octo-org",
      project_number: 1,
      owner: "octo-org",
      repo: "roadmap",
      issue_number: 1,
      field: "Status",
      value: "Done",
    });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "invalid_input", retryable: false });
    expect(result.error.message).toBe(
      "GitHub rejected field Status of octo-org/roadmap#1 in project 1 of octo-org: The single select option Id does not belong to the field",
    );
  });

  it("a query GitHub finds invalid, as GitHub words it, is a final upstream_error quoting GitHub", async () => {
    gh.fake.failNext("POST", "/graphql", {
      status: 200,
      body: {
        errors: [
          {
            path: ["query GetProject", "repositoryOwner", "projectV2", "bogus"],
            extensions: { code: "undefinedField", typeName: "ProjectV2", fieldName: "bogus" },
            locations: [{ line: 5, column: 11 }],
            message: "Field 'bogus' doesn't exist on type 'ProjectV2'",
          },
        ],
      },
    });
    expect(await failureOf(readProject)).toMatchObject({
      code: "upstream_error",
      retryable: false,
      message:
        "GitHub refused the GraphQL request for project 1 of octo-org: Field 'bogus' doesn't exist on type 'ProjectV2'",
    });
  });

  it("GitHub's own failure while executing is worth a retry, and so is a timeout's 502", async () => {
    gh.fake.failNext("POST", "/graphql", {
      status: 200,
      body: {
        data: null,
        errors: [
          {
            message:
              "Something went wrong while executing your query. This may be the result of a timeout, or it could be a GitHub bug. Please include `ABCD:1234:5678` when reporting this issue.",
          },
        ],
      },
    });
    expect(await failureOf(readProject)).toMatchObject({ code: "upstream_error", retryable: true });
    gh.fake.failNext("POST", "/graphql", {
      status: 502,
      body: {
        message:
          "We couldn't respond to your request in time. Sorry about that. Please try resubmitting your request and contact us if the problem persists.",
      },
    });
    expect(await failureOf(readProject)).toMatchObject({ code: "upstream_error", retryable: true });
  });
});
