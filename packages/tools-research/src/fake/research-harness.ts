/**
 * @module The research toolkit bound to the fake behind a real seam, as a deployment binds it: the real
 * toolkit host and egress client (loopback allowed for the fake alone), the fake's address as every
 * source's base URL, and no pacing unless a test asks for it (the pacer has its own test).
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import type { ResearchConfig } from "../research-config.js";
import { researchToolkit } from "../toolkit.js";
import { type ResearchFake, type ResearchFakeOptions, startResearchFake } from "./research-fake.js";

export interface ResearchHarness extends TestHarness {
  fake: ResearchFake;
  /** Calls research_search through the seam. */
  search(input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startResearchHarness(
  config: Partial<ResearchConfig> = {},
  fakeOptions: ResearchFakeOptions = {},
): Promise<ResearchHarness> {
  const fake = await startResearchFake(fakeOptions);
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await researchToolkit.build(
    {
      baseUrls: { wikipedia: fake.wikipediaUrl, arxiv: fake.url, pubmed: fake.url, hackernews: fake.url },
      pacingMs: { arxiv: 0, pubmed: 0 },
      ...config,
    },
    host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    fake,
    search: (input) => harness.seam.call(harness.context(), "research_search", input),
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
