import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LinearFake, startLinearFake } from "./linear-fake.js";
import { TEST_KEY } from "./linear-world.js";

let fake: LinearFake;
beforeAll(async () => {
  fake = await startLinearFake();
});
afterAll(() => fake.close());

async function post(query: string, authorization = TEST_KEY) {
  const response = await fetch(fake.endpoint, {
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

describe("the Linear fake", () => {
  it("refuses a query naming a field Linear's schema does not have, so a tool asking for one fails its tests", async () => {
    const answer = await post("query { teams { nodes { id slug } } }");
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/Cannot query field "slug" on type "Team"/) }),
    ]);
  });

  it("answers a valid query with the schema's shape and the rate-limit headers Linear sends on every answer", async () => {
    const answer = await post(
      "query { teams(first: 1) { nodes { key } pageInfo { hasNextPage endCursor } } }",
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        teams: { nodes: [{ key: "ENG" }], pageInfo: { hasNextPage: true, endCursor: expect.any(String) } },
      },
    });
    expect(Number(answer.headers.get("x-ratelimit-requests-reset"))).toBeGreaterThan(Date.now());
    expect(answer.headers.get("x-ratelimit-requests-limit")).toBe("2500");
  });

  it("takes the API key bare and refuses it behind Bearer, as Linear does", async () => {
    const answer = await post("query { teams { nodes { id } } }", `Bearer ${TEST_KEY}`);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: "AUTHENTICATION_ERROR" }) }),
    ]);
  });
});
