/** @module Brave Search beyond the conformance suite: its parameters, its word limit, its two error shapes. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { BRAVE_MONTH_RESET_S, type BraveScenario } from "./fakes/brave-fake.js";
import { type SearchRig, searchCaller, startSearchRig } from "./fakes/search-rig.js";
import type { SearchOutput } from "./search-results.js";

let rig: SearchRig<BraveScenario>;
let call: (input: unknown) => Promise<Envelope>;
beforeAll(async () => {
  rig = await startSearchRig<BraveScenario>("brave", { maxResults: 20 });
  call = searchCaller(createTestHarness(rig.tools, { clock: Date.now }));
});
afterAll(() => rig.close());
beforeEach(() => {
  rig.fake.requests.length = 0;
});

describe("the Brave Search adapter", () => {
  it("maps freshness to Brave's codes, puts the site in the query, and asks for plain web results", async () => {
    const envelope = await call({ query: "event loop", count: 7, freshness: "week", site: "NodeJS.org" });
    expect(envelope.ok).toBe(true);
    expect(rig.fake.requests[0]?.query).toEqual({
      q: "event loop site:nodejs.org",
      count: "7",
      text_decorations: "false",
      result_filter: "web",
      freshness: "pw",
    });
  });

  it.each([
    ["day", "pd"],
    ["month", "pm"],
    ["year", "py"],
  ])("sends freshness %s as %s", async (freshness, code) => {
    await call({ query: "tea", freshness });
    expect(rig.fake.requests[0]?.query.freshness).toBe(code);
  });

  it("refuses a query over Brave's 50 words before any request", async () => {
    const envelope = await call({ query: Array.from({ length: 51 }, (_, index) => `w${index}`).join(" ") });
    expect(envelope.ok ? undefined : envelope.error.code).toBe("invalid_input");
    expect(envelope.ok ? "" : envelope.error.message).toMatch(/50 words/);
    expect(rig.fake.requests).toHaveLength(0);
  });

  it("refuses a query that the site filter takes past Brave's 400 characters, and says the filter counts", async () => {
    const envelope = await call({ query: "t".repeat(395), site: "nodejs.org" });
    expect(envelope.ok ? "" : envelope.error.message).toMatch(/400 characters.*site filter counts/);
    expect(rig.fake.requests).toHaveLength(0);
  });

  it("waits out a spent monthly quota until its window resets, as X-RateLimit-Reset says", async () => {
    rig.fake.next("quota");
    const envelope = await call({ query: "tea" });
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error).toMatchObject({
      code: "upstream_rate_limited",
      retryAfterMs: BRAVE_MONTH_RESET_S * 1000,
    });
    expect(envelope.error.message).toContain("QUOTA_LIMITED");
  });

  it("reads a refused key in the reference's errors-list form too", async () => {
    rig.fake.next("documented-error-list");
    const envelope = await call({ query: "tea" });
    expect(envelope.ok ? "" : envelope.error.message).toMatch(
      /SUBSCRIPTION_TOKEN_INVALID.*credential "search-key"/,
    );
  });

  it("answers no results, not an error, when Brave's answer has no web section", async () => {
    rig.fake.next("no-web-results");
    const envelope = await call({ query: "zxqv" });
    expect(envelope.ok).toBe(true);
    if (!envelope.ok) return;
    expect((envelope.data as SearchOutput).results).toEqual([]);
    expect(envelope.content).toContain('Brave Search found no results for "zxqv"');
  });
});
