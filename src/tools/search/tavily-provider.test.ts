/** @module Tavily beyond the conformance suite: its JSON body and its pay-as-you-go limit. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { type SearchRig, searchCaller, startSearchRig } from "./fakes/search-rig.js";
import type { TavilyScenario } from "./fakes/tavily-fake.js";

let rig: SearchRig<TavilyScenario>;
let call: (input: unknown) => Promise<Envelope>;
beforeAll(async () => {
  rig = await startSearchRig<TavilyScenario>("tavily");
  call = searchCaller(createTestHarness(rig.tools, { clock: Date.now }));
});
afterAll(() => rig.close());
beforeEach(() => {
  rig.fake.requests.length = 0;
});

describe("the Tavily adapter", () => {
  it("sends freshness as time_range and the site as include_domains, in a JSON body", async () => {
    const envelope = await call({ query: "event loop", count: 4, freshness: "month", site: "nodejs.org" });
    expect(envelope.ok).toBe(true);
    const [sent] = rig.fake.requests;
    expect(sent?.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(sent?.body ?? "")).toEqual({
      query: "event loop",
      max_results: 4,
      topic: "general",
      search_depth: "basic",
      time_range: "month",
      include_domains: ["nodejs.org"],
    });
  });

  it("sends neither filter when none is asked for", async () => {
    await call({ query: "tea" });
    expect(Object.keys(JSON.parse(rig.fake.requests[0]?.body ?? "")).sort()).toEqual([
      "max_results",
      "query",
      "search_depth",
      "topic",
    ]);
  });

  it("reports the pay-as-you-go limit (433) as a spent quota, with Tavily's advice", async () => {
    rig.fake.next("pay-as-you-go-limit");
    const envelope = await call({ query: "tea" });
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error).toMatchObject({
      code: "upstream_rate_limited",
      details: { status: 433, limit: "quota" },
    });
    expect(envelope.error.message).toContain("increase your limit on the Tavily dashboard");
  });
});
