/** @module Egress holds every source to its host: with the operator's default policy a private address is refused, per source, as a result. */

import { createTestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ResearchFake, startResearchFake } from "./fake/research-fake.js";
import { researchToolkit } from "./toolkit.js";

let fake: ResearchFake;
const host = createToolkitHost();
beforeAll(async () => {
  fake = await startResearchFake();
});
afterAll(async () => {
  await host.close();
  await fake.close();
});

describe("research_search through the default egress policy", () => {
  it("reaches no loopback address: every source is refused by egress, and the call fails with egress's code", async () => {
    const tools = await researchToolkit.build(
      {
        baseUrls: { wikipedia: fake.wikipediaUrl, arxiv: fake.url, pubmed: fake.url, hackernews: fake.url },
        pacingMs: { arxiv: 0, pubmed: 0 },
      },
      host,
    );
    const harness = createTestHarness(tools, { clock: Date.now });
    const envelope = await harness.seam.call(harness.context(), "research_search", { query: "CRISPR" });
    expect(envelope.ok).toBe(false);
    if (envelope.ok) return;
    expect(envelope.error.code).toBe("egress_refused");
    expect(envelope.error.message).toMatch(/Wikipedia: .*; arXiv: .*; PubMed: .*; Hacker News: /);
    expect(fake.requests).toHaveLength(0);
  });
});
