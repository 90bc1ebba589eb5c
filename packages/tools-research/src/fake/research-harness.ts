/**
 * @module The research toolkit bound to the fake behind a real seam, as a deployment binds it: the real
 * toolkit host and egress client (loopback allowed for the fake alone), the fake's address as every
 * source's base URL, and no pacing unless a test asks for it (the pacer has its own test). Given an NCBI
 * key, the caller's credential resolver answers it for `NCBI_CREDENTIAL_REF`.
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { ResearchConfig } from "../research-config.js";
import type { ResearchOutput, SourceReport } from "../research-results.js";
import type { SourceName } from "../research-source.js";
import { researchToolkit } from "../toolkit.js";
import { type ResearchFake, type ResearchFakeOptions, startResearchFake } from "./research-fake.js";

export const NCBI_CREDENTIAL_REF = "ncbi";

export interface ResearchHarness extends TestHarness {
  fake: ResearchFake;
  /** Calls research_search through the seam. */
  search(input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startResearchHarness(
  config: Partial<ResearchConfig> = {},
  fakeOptions: ResearchFakeOptions = {},
  ncbiKey?: string,
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
    search: (input) =>
      harness.seam.call(
        harness.context(
          ncbiKey === undefined
            ? {}
            : {
                credentials: {
                  resolve: async (ref: string) =>
                    ref === NCBI_CREDENTIAL_REF ? ncbiKey : Promise.reject(new Error(`no credential ${ref}`)),
                },
              },
        ),
        "research_search",
        input,
      ),
    async close() {
      await host.close();
      await fake.close();
    },
  };
}

/**
 * A harness started before the file's tests and closed after them, the fake's recorded requests cleared
 * before each test. It is read through a stand-in, so a test file keeps one `const` for it; its members are
 * there once the file's tests have begun.
 */
export function useResearchHarness(config: Partial<ResearchConfig> = {}): ResearchHarness {
  let started: ResearchHarness | undefined;
  beforeAll(async () => {
    started = await startResearchHarness(config);
  });
  afterAll(() => started?.close());
  beforeEach(() => {
    if (started) started.fake.requests.length = 0;
  });
  return new Proxy({} as ResearchHarness, {
    get(_, key) {
      if (!started) throw new Error("the research harness is used before the file's tests began");
      return Reflect.get(started, key);
    },
  });
}

/** What `source` reported for a search of "CRISPR" (with `input` added); a search that failed throws. */
export async function sourceReport(
  research: ResearchHarness,
  source: SourceName,
  input: Record<string, unknown> = {},
): Promise<SourceReport | undefined> {
  const envelope = await research.search({ query: "CRISPR", ...input });
  if (!envelope.ok) throw new Error(envelope.error.message);
  return (envelope.data as ResearchOutput).sources.find((report) => report.source === source);
}
