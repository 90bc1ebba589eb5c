import { beforeAll, describe, expect, it } from "vitest";
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";
import { HybridToolSearch } from "../catalog/search/hybrid-tool-search.js";
import { type SearchDocument, ToolSearchIndex } from "../catalog/search/tool-search-index.js";
import { loadUniversalSentenceEncoder } from "./universal-sentence-encoder.js";

let encoder: EmbeddingProvider;
beforeAll(async () => {
  encoder = await loadUniversalSentenceEncoder();
}, 60_000);

const cosine = (a: number[], b: number[]) => {
  let dot = 0;
  let left = 0;
  let right = 0;
  a.forEach((value, i) => {
    dot += value * (b[i] ?? 0);
    left += value * value;
    right += (b[i] ?? 0) ** 2;
  });
  return dot / Math.sqrt(left * right);
};

const catalogue: SearchDocument[] = [
  { name: "house_renting_tool", description: "Provides all sorts of information about house renting." },
  { name: "weather_forecast", description: "Gives the weather forecast for a city." },
  {
    name: "currency_exchange_convert",
    description: "Converts an amount from a base currency to a target currency.",
  },
  { name: "send_email", description: "Sends an email message to a recipient." },
];

describe("the Universal Sentence Encoder provider", () => {
  it("embeds in 512 dimensions, batch by batch, with meaning closer than wording", async () => {
    const texts = Array.from({ length: 70 }, (_, i) => `sentence number ${i}`);
    const vectors = await encoder.embed(texts);
    expect(vectors).toHaveLength(70);
    expect(vectors.every((vector) => vector.length === 512)).toBe(true);
    const [apartment = [], flat = [], printer = []] = await encoder.embed([
      "I need an apartment to rent near the university",
      "looking for a flat to lease",
      "the printer is out of toner",
    ]);
    expect(cosine(apartment, flat)).toBeGreaterThan(cosine(apartment, printer));
    expect(await encoder.embed([])).toEqual([]);
  });

  it("gives a blank text a vector of its own, alone, inside a batch and at its end", async () => {
    const [hello = [], world = []] = await encoder.embed(["hello", "world"]);
    const vectors = await encoder.embed(["hello", "", "world", " "]);
    expect(vectors).toHaveLength(4);
    expect(cosine(vectors[0]!, hello)).toBeCloseTo(1, 5);
    expect(cosine(vectors[2]!, world)).toBeCloseTo(1, 5);
    expect(await encoder.embed([""])).toHaveLength(1);
  });

  it("finds by meaning what shares no word with the query, where BM25 alone finds nothing", async () => {
    const lexical = new ToolSearchIndex(catalogue);
    const query = "How many Canadian dollars will I get for 500 US dollars?";
    expect(lexical.search(query).map((hit) => hit.name)).not.toContain("currency_exchange_convert");
    const hybrid = new HybridToolSearch(new ToolSearchIndex(), encoder);
    await hybrid.add(catalogue);
    expect((await hybrid.search(query, { limit: 1 }))[0]?.name).toBe("currency_exchange_convert");
    expect((await hybrid.search("find me a flat to lease in Austin", { limit: 1 }))[0]?.name).toBe(
      "house_renting_tool",
    );
  });
});
