import { HTML_PAGE } from "toolreg/test";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rateLimitWaitMs } from "./confluence-failure.js";
import { v2Error } from "./fake/confluence-fake.js";
import { type ConfluenceHarness, failureOf, startConfluenceHarness } from "./fake/confluence-harness.js";
import { RUNBOOK_ID } from "./fake/confluence-site.js";

let confluence: ConfluenceHarness;
beforeAll(async () => {
  confluence = await startConfluenceHarness();
});
afterAll(() => confluence.close());
beforeEach(() => confluence.forget());

const read = () => confluence.call("confluence_get_page", { pageId: RUNBOOK_ID });

describe("Confluence's failures, as a model sees them", () => {
  it("says when to come back from a 429 with Retry-After, and asks once", async () => {
    confluence.fake.failNext({ status: 429, headers: { "retry-after": "17" }, body: "Rate limit exceeded" });
    const error = failureOf(await read());
    expect(error).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 17_000 });
    expect(error.message).toMatch(/Confluence is rate limiting these requests; try again in 17 s/);
    expect(confluence.sent()).toHaveLength(1);
  });

  it("reads X-RateLimit-Reset when a 429 has no Retry-After, and says later when it has neither", async () => {
    const reset = new Date(Date.now() + 30_000).toISOString();
    confluence.fake.failNext({ status: 429, headers: { "x-ratelimit-reset": reset }, body: "" });
    const timed = failureOf(await read());
    expect(timed.code).toBe("upstream_rate_limited");
    expect(timed.retryAfterMs).toBeGreaterThan(25_000);
    expect(timed.retryAfterMs).toBeLessThanOrEqual(30_000);
    confluence.fake.failNext({ status: 429, body: "" });
    const untimed = failureOf(await read());
    expect(untimed).toMatchObject({ code: "upstream_rate_limited", retryable: true });
    expect(untimed.retryAfterMs).toBeUndefined();
    expect(untimed.message).toMatch(/try again later/);
  });

  it("prefers Retry-After, then Beta-Retry-After, then the reset time", () => {
    const now = Date.parse("2026-12-06T10:00:00Z");
    expect(rateLimitWaitMs({ "retry-after": "5", "x-ratelimit-reset": "2026-12-06T10:01:00Z" }, now)).toBe(
      5000,
    );
    expect(rateLimitWaitMs({ "beta-retry-after": "9" }, now)).toBe(9000);
    expect(rateLimitWaitMs({ "x-ratelimit-reset": "2026-12-06T10:01Z" }, now)).toBe(60_000);
    expect(rateLimitWaitMs({}, now)).toBeUndefined();
  });

  it("reads v2's error body on a 403, and says retrying will not help", async () => {
    confluence.fake.failNext(v2Error(403, "FORBIDDEN", "User not permitted to view this page"));
    const error = failureOf(await read());
    expect(error).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 403 } });
    expect(error.message).toMatch(
      /Confluence refused this deployment's access \(403 Forbidden: User not permitted to view this page\)/,
    );
  });

  it("treats a refused credential (401) as the credential's failure, sending nothing more", async () => {
    const error = failureOf(
      await confluence.seam.call(
        confluence.context({ secret: "ada@acme.example:wrong" }),
        "confluence_get_page",
        { pageId: RUNBOOK_ID },
      ),
    );
    expect(error).toMatchObject({
      code: "auth_required",
      retryable: false,
      details: { status: 401, credentialRejected: true },
    });
    expect(confluence.sent()).toHaveLength(1);
  });

  it("says a 5xx may pass, and a page in place of JSON or JSON of another shape is no answer", async () => {
    confluence.fake.failNext(v2Error(503, "SERVICE_UNAVAILABLE", "Service Unavailable"));
    expect(failureOf(await read())).toMatchObject({ code: "upstream_error", retryable: true });
    confluence.fake.failNext(HTML_PAGE);
    expect(failureOf(await read()).message).toMatch(/answered 200 with something other than its JSON/);
    confluence.fake.failNext({ status: 200, body: { id: RUNBOOK_ID, title: "no version" } });
    expect(failureOf(await read()).message).toMatch(/not its documented response/);
  });
});
