/** @module PubMed with NCBI's optional API key: `api_key` placed by egress on every request, kept out of every result, and the ten-a-second pace it allows. */
import { describe, expect, it } from "vitest";
import { NCBI_CREDENTIAL_REF, startResearchHarness } from "../fake/research-harness.js";
import { PUBMED_KEYED_INTERVAL_MS } from "../research-config.js";

const NCBI_KEY = "0123456789abcdef0123456789abcdef0123";

describe("PubMed with an NCBI API key", () => {
  it("sends api_key on ESearch and ESummary, from the deployment's credential, and no result holds it", async () => {
    const research = await startResearchHarness(
      { sources: ["pubmed"], credentialRef: NCBI_CREDENTIAL_REF, pacingMs: { arxiv: 0, pubmed: 0 } },
      {},
      NCBI_KEY,
    );
    try {
      const envelope = await research.search({ query: "CRISPR", sources: ["pubmed"], maxResults: 2 });
      if (!envelope.ok) throw new Error(envelope.error.message);
      expect(research.fake.requests.map((request) => [request.path, request.query.api_key])).toEqual([
        ["/entrez/eutils/esearch.fcgi", NCBI_KEY],
        ["/entrez/eutils/esummary.fcgi", NCBI_KEY],
      ]);
      expect(JSON.stringify(envelope)).not.toContain(NCBI_KEY);
    } finally {
      await research.close();
    }
  });

  it("fails, naming the credentialRef, when the key cannot be resolved: nothing is sent", async () => {
    const research = await startResearchHarness({
      sources: ["pubmed"],
      credentialRef: NCBI_CREDENTIAL_REF,
      pacingMs: { arxiv: 0, pubmed: 0 },
    });
    try {
      const envelope = await research.search({ query: "CRISPR", sources: ["pubmed"] });
      if (envelope.ok) throw new Error("expected a failure");
      // research_search reports each source's failure as it came: here egress refusing the missing key.
      expect(envelope.error.code).toBe("egress_refused");
      expect(envelope.error.message).toContain(
        `credential_unavailable): the credential "${NCBI_CREDENTIAL_REF}"`,
      );
      expect(research.fake.requests).toEqual([]);
    } finally {
      await research.close();
    }
  });

  it("paces NCBI at its keyed default, under ten a second: three concurrent searches are never refused", async () => {
    const research = await startResearchHarness(
      { sources: ["pubmed"], credentialRef: NCBI_CREDENTIAL_REF, pacingMs: { arxiv: 0 } },
      { ncbiPerSecond: 3, ncbiKeyedPerSecond: 10 },
      NCBI_KEY,
    );
    try {
      const started = Date.now();
      const envelopes = await Promise.all(
        [1, 2, 3].map(() => research.search({ query: "CRISPR", sources: ["pubmed"] })),
      );
      expect(envelopes.filter((envelope) => !envelope.ok)).toEqual([]);
      expect(research.fake.requests).toHaveLength(6);
      // Six requests, five gaps: faster than the keyless 400 ms would allow, never under the keyed spacing.
      const elapsed = (research.fake.requests.at(-1)?.at ?? 0) - started;
      expect(elapsed).toBeGreaterThanOrEqual(5 * PUBMED_KEYED_INTERVAL_MS - 20);
      expect(elapsed).toBeLessThan(5 * 400);
    } finally {
      await research.close();
    }
  });
});
