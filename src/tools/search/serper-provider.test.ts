/** @module Serper beyond the conformance suite: Google's parameters in its JSON body. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import type { CommonScenario } from "./fakes/fake-server.js";
import { type SearchRig, searchCaller, startSearchRig } from "./fakes/search-rig.js";

let rig: SearchRig<CommonScenario>;
let call: (input: unknown) => Promise<Envelope>;
beforeAll(async () => {
  rig = await startSearchRig<CommonScenario>("serper");
  call = searchCaller(createTestHarness(rig.tools, { clock: Date.now }));
});
afterAll(() => rig.close());
beforeEach(() => {
  rig.fake.requests.length = 0;
});

describe("the Serper adapter", () => {
  it("sends the site as Google's site: operator and freshness as tbs", async () => {
    const envelope = await call({ query: "event loop", count: 3, freshness: "day", site: "nodejs.org" });
    expect(envelope.ok).toBe(true);
    expect(JSON.parse(rig.fake.requests[0]?.body ?? "")).toEqual({
      q: "event loop site:nodejs.org",
      num: 3,
      tbs: "qdr:d",
    });
  });

  it.each([
    ["week", "qdr:w"],
    ["month", "qdr:m"],
    ["year", "qdr:y"],
  ])("sends freshness %s as tbs %s", async (freshness, tbs) => {
    await call({ query: "tea", freshness });
    expect(JSON.parse(rig.fake.requests[0]?.body ?? "").tbs).toBe(tbs);
  });

  it("reads spent credits from the message of a 400, since Serper sends no status of its own for them", async () => {
    rig.fake.next("quota");
    const spent = await call({ query: "tea" });
    expect(spent.ok ? undefined : spent.error).toMatchObject({
      code: "upstream_rate_limited",
      details: { status: 400, limit: "quota" },
    });
  });
});
