/** @module SearXNG beyond the conformance suite: no key, no site filter, and its own ways of failing. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { type SearchRig, startSearchRig } from "./fakes/search-rig.js";
import type { SearxngScenario } from "./fakes/searxng-fake.js";

let rig: SearchRig<SearxngScenario>;
let call: (input: unknown) => Promise<Envelope>;
beforeAll(async () => {
  rig = await startSearchRig<SearxngScenario>("searxng");
  const harness = createTestHarness(rig.tools, { clock: Date.now });
  // No credential resolver at all: SearXNG needs none.
  call = (input) => harness.seam.call(harness.context(), "web_search", input);
});
afterAll(() => rig.close());
beforeEach(() => {
  rig.fake.requests.length = 0;
});

function failed(envelope: Envelope) {
  if (envelope.ok) throw new Error("expected a failure");
  return envelope.error;
}

describe("the SearXNG adapter", () => {
  it("asks the instance for JSON, page one, with time_range, and sends no credential", async () => {
    const envelope = await call({ query: "event loop", freshness: "week" });
    expect(envelope.ok).toBe(true);
    const [sent] = rig.fake.requests;
    expect(sent?.query).toEqual({ q: "event loop", format: "json", pageno: "1", time_range: "week" });
    expect(sent?.headers.authorization).toBeUndefined();
  });

  it("refuses a site filter before any request, since its engines may ignore it", async () => {
    const error = failed(await call({ query: "tea", site: "nodejs.org" }));
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/site is not supported by SearXNG.*search without it/);
    expect(rig.fake.requests).toHaveLength(0);
  });

  it("says the instance must enable the JSON format when it answers 403", async () => {
    rig.fake.next("format-disabled");
    const error = failed(await call({ query: "tea" }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: false });
    expect(error.message).toMatch(/add json to search\.formats in settings\.yml/);
  });

  it("names the bot limiter when it answers 429", async () => {
    rig.fake.next("rate-limited");
    const error = failed(await call({ query: "tea" }));
    expect(error.code).toBe("upstream_rate_limited");
    expect(error.message).toMatch(/bot limiter.*pass_ip/);
  });

  it("reports engines that all failed as a retryable error, not as an empty page", async () => {
    rig.fake.next("engines-down");
    const error = failed(await call({ query: "tea" }));
    expect(error).toMatchObject({ code: "upstream_error", retryable: true });
    expect(error.message).toContain("duckduckgo (CAPTCHA), google (timeout)");
  });
});
