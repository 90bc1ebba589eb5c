import { createToolkitHost, type ToolkitEgressRequest, type ToolkitHost } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { ARXIV_INTERVAL_MS } from "./research-config.js";
import { researchToolkit, sourceHost } from "./toolkit.js";

describe("the research toolkit as data", () => {
  it("declares research_search: knowledge, read, never gated, no key, from this package", () => {
    const [tool, ...others] = researchToolkit.declarations();
    expect(others).toEqual([]);
    expect(tool).toMatchObject({
      name: "research_search",
      category: "knowledge",
      effect: "read",
      approval: "never",
      idempotencyKey: false,
      provenance: "package:@toolreg/tools-research",
    });
    expect(tool?.overrides).toEqual([]);
    expect(researchToolkit.auth).toEqual({ kind: "api-key", query: "api_key" });
    expect(researchToolkit.triage).toBeUndefined();
  });

  it("reaches the four public APIs, every Wikipedia edition as a subdomain", () => {
    expect(researchToolkit.hosts).toEqual([
      "*.wikipedia.org",
      "export.arxiv.org",
      "eutils.ncbi.nlm.nih.gov",
      "hn.algolia.com",
    ]);
  });
});

describe("the research toolkit's configuration", () => {
  it("defaults to all four sources, 5 results each, English Wikipedia and the pacing arXiv and NCBI ask", () => {
    expect(researchToolkit.parseConfig({})).toEqual({
      sources: ["wikipedia", "arxiv", "pubmed", "hackernews"],
      baseUrls: {},
      maxResults: 5,
      wikipediaLanguage: "en",
      pacingMs: { arxiv: ARXIV_INTERVAL_MS },
    });
  });

  it.each([
    [{ sources: [] }, "sources"],
    [{ sources: ["arxiv", "arxiv"] }, "sources"],
    [{ sources: ["scholar"] }, "sources"],
    [{ maxResults: 21 }, "maxResults"],
    [{ wikipediaLanguage: "en.evil.example" }, "wikipediaLanguage"],
    [{ contactEmail: "not an email" }, "contactEmail"],
    [{ baseUrls: { arxiv: "ftp://export.arxiv.org" } }, "baseUrls"],
    [{ baseUrls: { pubmed: "https://user:pass@eutils.example" } }, "baseUrls"],
    [{ baseUrls: { wikipedia: "https://wikipedia.example" } }, "baseUrls"],
    [{ baseUrls: { wikipedia: "https://x{lang}.wikipedia.org" } }, "baseUrls"],
    [{ baseUrls: { wikipedia: "https://{lang}.{lang}.example" } }, "baseUrls"],
    [{ baseUrls: { scholar: "https://scholar.example" } }, "baseUrls"],
    [{ pacingMs: { arxiv: -1 } }, "pacingMs"],
    [{ apiKey: "secret" }, "apiKey"],
  ])("refuses %j, naming %s", (config, field) => {
    expect(() => researchToolkit.parseConfig(config)).toThrow(new RegExp(field));
  });

  it("turns each root into the host egress allows", () => {
    expect(sourceHost("https://{lang}.wikipedia.org")).toBe("*.wikipedia.org");
    expect(sourceHost("http://127.0.0.1:8080/wikipedia/{lang}")).toBe("127.0.0.1");
    expect(sourceHost("https://export.arxiv.org")).toBe("export.arxiv.org");
  });

  it("gives each source its own egress client for its host alone, with no credential", async () => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    const tools = await researchToolkit.build(
      { sources: ["wikipedia", "pubmed"], baseUrls: { pubmed: "https://eutils.proxy.example/ncbi" } },
      spying,
    );
    await host.close();
    expect(tools.map((tool) => tool.name)).toEqual(["research_search"]);
    expect(asked).toEqual([{ hosts: ["*.wikipedia.org"] }, { hosts: ["eutils.proxy.example"] }]);
  });

  it("gives PubMed's client, and only it, the NCBI key as api_key when a credentialRef names it", async () => {
    const host = createToolkitHost();
    const asked: ToolkitEgressRequest[] = [];
    const spying: ToolkitHost = {
      ...host,
      egress(request = {}) {
        asked.push(request);
        return host.egress(request);
      },
    };
    await researchToolkit.build({ sources: ["arxiv", "pubmed"], credentialRef: "ncbi" }, spying);
    await host.close();
    expect(asked).toEqual([
      { hosts: ["export.arxiv.org"] },
      { hosts: ["eutils.ncbi.nlm.nih.gov"], credential: { query: "api_key", credentialRef: "ncbi" } },
    ]);
  });
});
