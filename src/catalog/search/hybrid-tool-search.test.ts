import { describe, expect, it } from "vitest";
import { failingOnQueries } from "../../../test/support/failing-embeddings.js";
import { searchDocuments as catalogue } from "../../../test/support/search-documents.js";
import {
  type EmbeddingProvider,
  EmbeddingProviderError,
  HashedBagOfWordsEmbedding,
} from "./embedding-provider.js";
import { HybridToolSearch, type HybridWeights } from "./hybrid-tool-search.js";
import { type SearchDocument, ToolSearchIndex } from "./tool-search-index.js";

describe("HybridToolSearch", () => {
  it("fuses lexical and embedding rankings deterministically, with the filter applied to both", async () => {
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), new HashedBagOfWordsEmbedding(64));
    await hybrid.add(catalogue);
    const first = await hybrid.search("read a web page");
    expect(first[0]?.name).toBe("fetch_url");
    expect(await hybrid.search("read a web page")).toEqual(first);
    const filtered = await hybrid.search("read a web page", {
      filter: (document) => document.category !== "web",
    });
    expect(filtered.map((hit) => hit.name)).not.toContain("fetch_url");
    expect(filtered.map((hit) => hit.name)).not.toContain("web_search");
    expect(hybrid.remove("fetch_url")).toBe(true);
    expect((await hybrid.search("read a web page")).map((hit) => hit.name)).not.toContain("fetch_url");
    expect(await hybrid.search("")).toEqual([]);
  });

  it("mixes the rankings by weight: the lexical alone keeps its order, the embedding alone its own", async () => {
    // Vectors by topic, so the embedding's ranking is known and differs from the words'.
    const topics: [string, number[]][] = [
      ["vehicle", [1, 0, 0]],
      ["car", [1, 0, 0]],
      ["email", [0, 1, 0]],
    ];
    const byTopic: EmbeddingProvider = {
      embed: (texts) =>
        texts.map((text) => topics.find(([word]) => text.includes(word))?.[1] ?? [0.1, 0.1, 1]),
    };
    const documents: SearchDocument[] = [
      { name: "rent_vehicle", description: "Rent a vehicle for a trip." },
      { name: "send_email", description: "Send an email message about a trip." },
      { name: "book_trip", description: "Book a trip, a trip plan and trip tickets." },
    ];
    const search = async (semantic: number, query: string) => {
      const weights = { semantic, lexical: 1 - semantic, characters: 0, coverage: 0 };
      const hybrid = new HybridToolSearch(new ToolSearchIndex(), byTopic, { weights });
      await hybrid.add(documents);
      return (await hybrid.search(query)).map((hit) => hit.name);
    };
    const lexicalOrder = new ToolSearchIndex(documents).search("plan a trip").map((hit) => hit.name);
    expect(await search(0, "plan a trip")).toEqual(lexicalOrder);
    // "car" is in no document, so only the embedding can rank rent_vehicle first; the words favour book_trip.
    expect(new ToolSearchIndex(documents).search("a car trip")[0]?.name).toBe("book_trip");
    // The embedding alone drops the tool it ranks last: its share of the mix is 0.
    expect(await search(1, "a car trip")).toEqual(["rent_vehicle", "book_trip"]);
    expect(await search(0.7, "a car trip")).toEqual(["rent_vehicle", "book_trip", "send_email"]);
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), byTopic);
    await hybrid.add(documents);
    const hits = await hybrid.search("a car trip", { limit: 2 });
    expect(hits).toHaveLength(2);
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score);
    const filtered = await hybrid.search("a car trip", {
      filter: (document) => document.name !== "rent_vehicle",
    });
    expect(filtered.map((hit) => hit.name)).toEqual(["book_trip", "send_email"]);
  });

  it("ranks by the character pieces a tool shares when the stemmer keeps the words apart", async () => {
    // An embedding that says nothing: every text gets the same vector.
    const flat: EmbeddingProvider = { embed: (texts) => texts.map(() => [1, 0]) };
    const documents: SearchDocument[] = [
      { name: "genetics_similarity", description: "Calculates the genetic similarity between two species." },
      { name: "species_count", description: "Counts species." },
    ];
    const query = "how genetically similar are these species";
    // "genetical" and "similar" stem apart from "genetic" and "similariti": the words favour the shorter tool.
    expect(new ToolSearchIndex(documents).search(query).map((hit) => hit.name)).toEqual([
      "species_count",
      "genetics_similarity",
    ]);
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), flat);
    await hybrid.add(documents);
    expect((await hybrid.search(query)).map((hit) => hit.name)).toEqual([
      "genetics_similarity",
      "species_count",
    ]);
    const withoutPieces = new HybridToolSearch(new ToolSearchIndex(), flat, { weights: { characters: 0 } });
    await withoutPieces.add(documents);
    expect((await withoutPieces.search(query))[0]?.name).toBe("species_count");
    // What the filter leaves out stays out, however many pieces it shares.
    const filtered = await hybrid.search(query, {
      filter: (document) => document.name !== "genetics_similarity",
    });
    expect(filtered.map((hit) => hit.name)).toEqual(["species_count"]);
  });

  it("adds each candidate's coverage of the query, by its weight", async () => {
    const flat: EmbeddingProvider = { embed: (texts) => texts.map(() => [1, 0]) };
    const weights = { semantic: 0, lexical: 1, characters: 0, coverage: 0.5 };
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), flat, { weights });
    await hybrid.add(catalogue);
    const query = "download a web page as markdown from paris";
    const hits = await hybrid.search(query);
    const lexical = hybrid.index.search(query, { limit: 50 });
    const shares = hybrid.index.coverage(
      query,
      hits.map((hit) => hit.name),
    );
    expect(hits[0]?.name).toBe("fetch_url");
    hits.forEach((hit, i) => {
      const words = lexical.find((entry) => entry.name === hit.name)!.score / lexical[0]!.score;
      expect(hit.score).toBeCloseTo(words + 0.5 * shares[i]!, 9);
    });
    expect(shares[0]).toBeGreaterThan(0);
    expect(shares[0]).toBeLessThan(1);
  });

  it("refuses weights that are negative, not finite, unknown, or leave coverage nothing to re-rank", () => {
    const flat: EmbeddingProvider = { embed: (texts) => texts.map(() => [1]) };
    expect(
      () =>
        new HybridToolSearch(new ToolSearchIndex(), flat, {
          weights: { semnatic: 1 } as Partial<HybridWeights>,
        }),
    ).toThrow("no signal semnatic");
    // A weight given as undefined keeps its default.
    expect(
      () => new HybridToolSearch(new ToolSearchIndex(), flat, { weights: { semantic: undefined } }),
    ).not.toThrow();
    for (const weights of [
      { semantic: -0.1 },
      { lexical: Number.NaN },
      { characters: Number.POSITIVE_INFINITY },
    ]) {
      expect(() => new HybridToolSearch(new ToolSearchIndex(), flat, { weights })).toThrow(RangeError);
    }
    expect(
      () =>
        new HybridToolSearch(new ToolSearchIndex(), flat, {
          weights: { semantic: 0, lexical: 0, characters: 0, coverage: 1 },
        }),
    ).toThrow("at least one of semantic, lexical and characters");
  });

  it("lets coverage lift any tool it can lift, whatever the limit asked for", async () => {
    // 300 tools close together by meaning, one far below them; only tool_250 holds the query's words.
    const byIndex: EmbeddingProvider = {
      embed: (texts) =>
        texts.map((text) => {
          const index = Number(/tool (\d+)/.exec(text)?.[1] ?? -1);
          return index < 0 ? [1, 0.05] : index === 999 ? [0, 1] : [1, index / 3_000];
        }),
    };
    const documents: SearchDocument[] = Array.from({ length: 300 }, (_, i) => ({
      name: `tool_${String(i).padStart(3, "0")}`,
      description: i === 250 ? "Alpha beta gamma." : "Something else.",
    }));
    documents.push({ name: "tool_999", description: "Far away." });
    const weights = { semantic: 0.6, lexical: 0, characters: 0, coverage: 0.15 };
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), byIndex, { weights });
    await hybrid.add(documents);
    for (const limit of [1, 10, 300]) {
      expect((await hybrid.search("alpha beta gamma", { limit }))[0]?.name).toBe("tool_250");
    }
  });

  it("replaces a name added twice, forgets a removed one, and takes it back when added again", async () => {
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), new HashedBagOfWordsEmbedding(64));
    await hybrid.add([...catalogue, { name: "fetch_url", description: "Translate text between languages." }]);
    expect(hybrid.index.size).toBe(catalogue.length);
    expect((await hybrid.search("translate text"))[0]?.name).toBe("fetch_url");
    expect((await hybrid.search("download a web page"))[0]?.name).not.toBe("fetch_url");
    expect(hybrid.remove("fetch_url")).toBe(true);
    expect(hybrid.remove("fetch_url")).toBe(false);
    expect((await hybrid.search("translate text")).map((hit) => hit.name)).not.toContain("fetch_url");
    await hybrid.add([catalogue[0]!]);
    expect((await hybrid.search("download a web page"))[0]?.name).toBe("fetch_url");
    expect(hybrid.index.size).toBe(catalogue.length);
  });

  it("ranks on when a provider gives a vector with NaN in it: that vector says nothing", async () => {
    const broken: EmbeddingProvider = {
      embed: (texts) =>
        texts.map((text) =>
          text.startsWith("web search")
            ? [Number.NaN, ...new Array<number>(15).fill(1)]
            : new HashedBagOfWordsEmbedding(16).embed([text])[0]!,
        ),
    };
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), broken);
    await hybrid.add(catalogue);
    const hits = await hybrid.search("download a web page");
    expect(hits[0]?.name).toBe("fetch_url");
    for (const hit of hits) expect(Number.isFinite(hit.score)).toBe(true);
  });

  it("weighs meaning as much in a catalogue of thousands as in a small one", async () => {
    // The query and the currency tool share a topic and no word; one filler shares an incidental word.
    // The fillers' similarity to the query spreads from 0 to 0.67, as a real model's would.
    const byTopic: EmbeddingProvider = {
      embed: (texts) =>
        texts.map((text) =>
          /currenc|yen/.test(text) ? [1, 0] : [(Number(/\d+/.exec(text)?.[0] ?? 0) % 10) / 10, 1],
        ),
    };
    const fillers = (count: number): SearchDocument[] =>
      Array.from({ length: count }, (_, i) => ({
        name: `filler_${i}`,
        description: i === 0 ? "Counts dollars in a jar." : `Filler number ${i} for a test.`,
      }));
    for (const count of [10, 2_000]) {
      const hybrid = new HybridToolSearch(new ToolSearchIndex(), byTopic);
      await hybrid.add([
        { name: "exchange_money", description: "Exchange money between currencies." },
        ...fillers(count),
      ]);
      const [best] = await hybrid.search("how many yen for 500 dollars");
      expect(best?.name).toBe("exchange_money");
    }
  });

  it("says the provider failed on a query in an error of its own", async () => {
    const failing = failingOnQueries("HTTP 503", 16);
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), failing);
    await hybrid.add(catalogue);
    const failed = hybrid.search("read a web page");
    await expect(failed).rejects.toThrow(EmbeddingProviderError);
    await expect(failed).rejects.toThrow("the embedding provider failed: HTTP 503");
  });

  it("indexes nothing when the provider gives a vector too few", async () => {
    const short: EmbeddingProvider = { embed: (texts) => texts.slice(1).map(() => [1, 0]) };
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), short);
    await expect(hybrid.add(catalogue)).rejects.toThrow(
      `gave ${catalogue.length - 1} vectors for ${catalogue.length} texts`,
    );
    expect(hybrid.index.size).toBe(0);
    expect(await hybrid.search("read a web page")).toEqual([]);
  });

  it("ranks a limit of hundreds as it ranks a short one, and refuses vectors with no numbers", async () => {
    const many: SearchDocument[] = Array.from({ length: 300 }, (_, i) => ({
      name: `tool_${i}`,
      description: `Handles ${["invoices", "tickets", "calendars", "pages"][i % 4]} number ${i} for a team.`,
    }));
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), new HashedBagOfWordsEmbedding(32));
    await hybrid.add(many);
    const long = await hybrid.search("team invoices", { limit: 200 });
    expect(long).toHaveLength(200);
    expect((await hybrid.search("team invoices", { limit: 10 })).map((hit) => hit.name)).toEqual(
      long.slice(0, 10).map((hit) => hit.name),
    );
    const empty = new HybridToolSearch(new ToolSearchIndex(), { embed: (texts) => texts.map(() => []) });
    await expect(empty.add(many)).rejects.toThrow("vectors with no numbers in them");
  });

  it("refuses vectors of another length than the ones before, for a tool and for a query", async () => {
    const words = new HashedBagOfWordsEmbedding(16);
    let queryLength = 16;
    const provider: EmbeddingProvider = {
      embed: (texts) =>
        texts.map((text) =>
          text.startsWith("send email") ? [1, 0] : (words.embed([text])[0] ?? []).slice(0, queryLength),
        ),
    };
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), provider);
    await hybrid.add([]);
    await expect(hybrid.add(catalogue)).rejects.toThrow("a vector of 2 numbers where the others have 16");
    expect(hybrid.index.size).toBe(0);
    await hybrid.add(catalogue.filter((document) => document.name !== "send_email"));
    expect((await hybrid.search("download a web page"))[0]?.name).toBe("fetch_url");
    queryLength = 8;
    const failed = hybrid.search("download a web page");
    await expect(failed).rejects.toThrow(EmbeddingProviderError);
    await expect(failed).rejects.toThrow("a vector of 8 numbers for the query, 16 for the tools");
  });
});
