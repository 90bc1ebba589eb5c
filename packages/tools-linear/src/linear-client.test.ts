import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LinearScenario } from "./fake/linear-fake.js";
import { failureOf, type LinearHarness, okData, startLinearHarness } from "./fake/linear-harness.js";
import { ENG, TEST_KEY } from "./fake/linear-world.js";

let linear: LinearHarness;
beforeAll(async () => {
  linear = await startLinearHarness();
});
afterAll(() => linear.close());

/** One call of each tool that reaches Linear in one request (the creates read back after a failure). */
const CALLS: [string, Record<string, unknown>][] = [
  ["linear_search_issues", { query: "safari" }],
  ["linear_get_issue", { issue: "ENG-1" }],
  ["linear_list_teams", {}],
  ["linear_list_states", { teamId: ENG }],
  ["linear_create_issue", { teamId: ENG, title: "Envelope test" }],
  ["linear_update_issue", { issue: "ENG-2", priority: 4 }],
  ["linear_comment", { issue: "ENG-2", body: "Envelope test" }],
];
const CREATES = ["linear_create_issue", "linear_comment"];

async function post(query: string, authorization = TEST_KEY) {
  const response = await fetch(linear.fake.endpoint, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({ query }),
  });
  return {
    status: response.status,
    headers: response.headers,
    body: (await response.json()) as Record<string, unknown>,
  };
}

describe("every tool reads Linear's envelope the same way", () => {
  const scenarios: [LinearScenario, (error: ReturnType<typeof failureOf>) => void][] = [
    [
      "rate-limited",
      (error) => {
        expect(error).toMatchObject({
          code: "upstream_rate_limited",
          details: { status: 400, linearCode: "RATELIMITED" },
        });
        expect(error.retryAfterMs).toBeGreaterThan(55_000);
      },
    ],
    [
      "rate-limited-no-reset",
      (error) => {
        expect(error).toMatchObject({ code: "upstream_rate_limited", details: { status: 400 } });
        expect(error.retryAfterMs).toBeUndefined();
      },
    ],
    [
      "http-429",
      (error) => {
        expect(error.code).toBe("upstream_rate_limited");
        expect(error.retryAfterMs).toBeUndefined();
      },
    ],
    [
      "http-429-retry-after",
      (error) => expect(error).toMatchObject({ code: "upstream_rate_limited", retryAfterMs: 7000 }),
    ],
  ];
  for (const [scenario, check] of scenarios) {
    it.each(CALLS)(`${scenario}: %s fails, and no write is read back`, async (name, input) => {
      const before = linear.fake.operations().length;
      linear.fake.next(scenario);
      check(failureOf(await linear.callApproved(name, input)));
      expect(linear.fake.operations().length - before).toBe(1);
    });
  }

  it.each(CALLS)(
    "partial data (a 200 with data and errors): %s never returns the data",
    async (name, input) => {
      const before = linear.fake.operations().length;
      linear.fake.next("partial");
      const envelope = await linear.callApproved(name, input, { idempotencyKey: `partial-${name}` });
      const sent = linear.fake.operations().slice(before);
      if (CREATES.includes(name)) {
        // Linear made the entity beside its error: the tool reports it only as found again by its id.
        const [create] = sent.map((operation) => operation.name);
        expect(sent.map((operation) => operation.name)).toEqual([
          create,
          `${create}ById`.replace("CreateIssue", "Issue"),
        ]);
        expect(okData<{ recovered: boolean }>(envelope).recovered).toBe(true);
      } else {
        expect(sent).toHaveLength(1);
        expect(failureOf(envelope)).toMatchObject({
          code: "upstream_error",
          retryable: true,
          details: { status: 200, linearType: "internal error" },
        });
      }
    },
  );
});

describe("a 200 with errors[] of any shape is a failure", () => {
  it.each([
    [
      "a null code and presentable message",
      { message: "Oops", extensions: { code: null, userPresentableMessage: null } },
    ],
    ["a numeric message", { message: 42 }],
    ["a null in path", { message: "Oops", path: ["teams", null] }],
    ["a bare string", "Something failed"],
    ["null", null],
  ])("%s beside data", async (_, entry) => {
    linear.fake.errorsNext([entry]);
    const error = failureOf(await linear.call("linear_list_teams", {}));
    expect(error.code).toBe("upstream_error");
    expect(error.details).toMatchObject({ status: 200 });
  });

  it("still reads a decisive entry among odd ones", async () => {
    linear.fake.errorsNext([
      "noise",
      { message: "Entity not found: Team", extensions: { code: "INPUT_ERROR", type: 7 } },
    ]);
    expect(failureOf(await linear.call("linear_list_teams", {})).code).toBe("invalid_input");
  });
});

describe("the Linear fake", () => {
  it("refuses a query naming a field Linear's schema does not have, so a tool asking for one fails its tests", async () => {
    const answer = await post("query { teams { nodes { id slug } } }");
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/Cannot query field "slug" on type "Team"/) }),
    ]);
  });

  it("answers with the schema's shape and the rate-limit headers on every answer; refuses a Bearer-prefixed key", async () => {
    const answer = await post(
      "query { teams(first: 1) { nodes { key } pageInfo { hasNextPage endCursor } } }",
    );
    expect(answer.body).toEqual({
      data: {
        teams: { nodes: [{ key: "ENG" }], pageInfo: { hasNextPage: true, endCursor: expect.any(String) } },
      },
    });
    expect(Number(answer.headers.get("x-ratelimit-requests-reset"))).toBeGreaterThan(Date.now());
    const bearer = await post("query { teams { nodes { id } } }", `Bearer ${TEST_KEY}`);
    expect(bearer.body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: "AUTHENTICATION_ERROR" }) }),
    ]);
  });
});
