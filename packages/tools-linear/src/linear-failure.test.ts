import type { EgressResponse } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { type LinearGraphqlError, linearFailure } from "./linear-failure.js";

function response(status: number, headers: Record<string, string> = {}): EgressResponse {
  return {
    status,
    headers,
    url: "https://api.linear.app/graphql",
    redirects: [],
    address: "127.0.0.1",
    body: Buffer.alloc(0),
    bytesRead: 0,
    truncated: false,
  };
}

/** Linear's answer to a revoked key, from public client test fixtures (Linear's docs publish none). */
const UNAUTHENTICATED: LinearGraphqlError = {
  message: "Authentication required, not authenticated",
  extensions: {
    type: "authentication error",
    code: "AUTHENTICATION_ERROR",
    userPresentableMessage: "You need to authenticate to access this operation.",
  },
};

describe("linearFailure", () => {
  it.each([400, 401, 200])(
    "reads AUTHENTICATION_ERROR as the 401 it means, whatever the status (%i)",
    (status) => {
      const failure = linearFailure([UNAUTHENTICATED], response(status), "the list of teams");
      expect(failure.envelopeCode).toBe("upstream_error");
      expect(failure.details).toMatchObject({ status: 401, linearCode: "AUTHENTICATION_ERROR" });
      expect(failure.message).toMatch(/an API key goes bare/);
    },
  );

  it("lets a rate limit or a refused key win over an entity not found beside it", () => {
    const notFound = {
      message: "Entity not found: Issue",
      extensions: { code: "INPUT_ERROR", type: "invalid input" },
    };
    expect(linearFailure([notFound, UNAUTHENTICATED], response(200), "x").details).toMatchObject({
      status: 401,
    });
    const limited = { message: "Rate limit exceeded", extensions: { code: "RATELIMITED" } };
    expect(linearFailure([notFound, limited], response(400), "x").envelopeCode).toBe("upstream_rate_limited");
  });

  it("waits for the latest reset among the exhausted budgets, read as epoch milliseconds", () => {
    const now = Date.now();
    const failure = linearFailure(
      [{ message: "Rate limit exceeded", extensions: { code: "RATELIMITED" } }],
      response(400, {
        "x-ratelimit-requests-remaining": "12",
        "x-ratelimit-requests-reset": String(now + 900_000),
        "x-ratelimit-complexity-remaining": "0",
        "x-ratelimit-complexity-reset": String(now + 30_000),
      }),
      "x",
    );
    expect(failure.retryAfterMs).toBeGreaterThan(25_000);
    expect(failure.retryAfterMs).toBeLessThanOrEqual(30_000);
    expect(failure.details).toMatchObject({ limit: "complexity" });
  });

  it("reads a reset too small for epoch milliseconds as epoch seconds, not as 1970", () => {
    const now = Date.now();
    const failure = linearFailure(
      [{ message: "Rate limit exceeded", extensions: { code: "RATELIMITED" } }],
      response(400, {
        "x-ratelimit-requests-remaining": "0",
        "x-ratelimit-requests-reset": String(Math.floor(now / 1000) + 40),
      }),
      "x",
    );
    expect(failure.retryAfterMs).toBeGreaterThan(35_000);
    expect(failure.retryAfterMs).toBeLessThanOrEqual(40_000);
  });

  it("reads the type alone when Linear sends no code: ratelimited, forbidden, invalid input", () => {
    expect(
      linearFailure([{ message: "slow", extensions: { type: "ratelimited" } }], response(400), "x")
        .envelopeCode,
    ).toBe("upstream_rate_limited");
    const forbidden = linearFailure(
      [{ message: "Forbidden", extensions: { type: "forbidden" } }],
      response(403),
      "x",
    );
    expect(forbidden).toMatchObject({ envelopeCode: "upstream_error", retryable: false });
    expect(forbidden.message).toMatch(/permissions or team access/);
    const invalid = linearFailure(
      [
        {
          message: "Argument Validation Error",
          extensions: { type: "invalid input", userPresentableMessage: "title must be shorter" },
        },
      ],
      response(400),
      "the new issue",
    );
    expect(invalid.envelopeCode).toBe("invalid_input");
    expect(invalid.message).toBe("Linear rejected the new issue: title must be shorter; change the input");
  });

  it("keeps vendor text to one short line", () => {
    const failure = linearFailure([{ message: `boom\n${"x".repeat(500)}` }], response(400), "x");
    expect(failure.message).not.toContain("\n");
    expect(failure.message.length).toBeLessThan(320);
  });
});
