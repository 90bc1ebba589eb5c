import { describe, expect, it } from "vitest";
import { CharacterNgramIndex, forEachNgram } from "./character-ngram-index.js";
import { ToolSearchIndex } from "./tool-search-index.js";

const texts = [
  "genetics_similarity Calculates the genetic similarity between two species.",
  "stock_price Gets the price of a stock on an exchange.",
  "weather_forecast Forecasts the weather for a city.",
];

function scores(index: CharacterNgramIndex, query: string, size = texts.length): number[] {
  const into = new Float64Array(size);
  index.similarities(query, into);
  return [...into];
}

function indexed(values: readonly string[]): CharacterNgramIndex {
  const index = new CharacterNgramIndex();
  values.forEach((text, id) => {
    index.set(id, text);
  });
  return index;
}

function hashes(text: string): number[] {
  const found: number[] = [];
  forEachNgram(text, (hash) => found.push(hash));
  return found;
}

describe("forEachNgram", () => {
  it("hashes every 3-, 4- and 5-character piece of the padded, lower-cased words", () => {
    // " ab cd " is 7 characters: 5 pieces of 3, 4 of 4, 3 of 5.
    expect(hashes("ab cd")).toHaveLength(12);
    expect(hashes("AB  cd!")).toEqual(hashes("ab cd"));
    expect(hashes("triangleArea")).toEqual(hashes("triangle area"));
    // " tri ": 3 pieces of 3, 2 of 4, 1 of 5.
    expect(hashes("tri")).toHaveLength(6);
    expect(hashes("")).toEqual([]);
    expect(hashes("  ?! ")).toEqual([]);
    for (const hash of hashes("Käärijä sings")) expect(Number.isInteger(hash) && hash >= 0).toBe(true);
  });

  it("tells pieces apart by their characters and by their length", () => {
    const [tri] = hashes("tri").slice(1, 2);
    expect(hashes("trx")).not.toContain(tri);
    expect(new Set(hashes("abcdefgh")).size).toBe(hashes("abcdefgh").length);
  });
});

describe("CharacterNgramIndex", () => {
  it("meets a word the stemmer keeps apart from its neighbour", () => {
    const query = "how genetically similar are a human and a chimp";
    // The stemmer leaves "genetical" and "genetic" apart, so BM25 finds nothing.
    const words = new ToolSearchIndex(
      texts.map((text) => ({ name: text.split(" ")[0]!, description: text.slice(text.indexOf(" ") + 1) })),
    );
    expect(words.search(query)).toEqual([]);
    const similar = scores(indexed(texts), query);
    expect(similar[0]).toBeGreaterThan(0);
    expect(similar[0]).toBeGreaterThan(similar[1]!);
    expect(similar[0]).toBeGreaterThan(similar[2]!);
  });

  it("weighs a piece every text shares below a rare one", () => {
    const index = indexed(["apple common", "banana common", "cherry common"]);
    const rare = scores(index, "apple");
    const common = scores(index, "common");
    expect(rare[0]).toBeGreaterThan(common[0]!);
    // A piece held by every text still counts (smoothed inverse frequency).
    expect(common[0]).toBeGreaterThan(0);
  });

  it("adds into the caller's array by its ids, and forgets what was replaced or deleted", () => {
    const index = new CharacterNgramIndex();
    index.set(4, "stock price");
    index.set(1, "weather forecast");
    expect(index.size).toBe(2);
    const into = new Float64Array(6).fill(0.5);
    index.similarities("stock", into);
    expect(into[4]).toBeGreaterThan(0.5);
    expect([into[0], into[1], into[2], into[3], into[5]]).toEqual([0.5, 0.5, 0.5, 0.5, 0.5]);

    index.set(4, "weather radar");
    expect(index.size).toBe(2);
    expect(scores(index, "stock", 6)[4]).toBe(0);
    expect(scores(index, "radar", 6)[4]).toBeGreaterThan(0);

    expect(index.delete(4)).toBe(true);
    expect(index.delete(4)).toBe(false);
    expect(index.size).toBe(1);
    expect(scores(index, "weather radar", 6)[4]).toBe(0);
    expect(scores(index, "weather", 6)[1]).toBeGreaterThan(0);
  });

  it("divides each text by its own length: one that is mostly other words shares less with the query", () => {
    const similar = scores(indexed(["car", `car ${"truck ".repeat(30)}`]), "car", 2);
    expect(similar[1]).toBeGreaterThan(0);
    expect(similar[0]).toBeGreaterThan(similar[1]!);
  });

  it("finds nothing in an empty index or for a query without letters", () => {
    expect(scores(new CharacterNgramIndex(), "anything")).toEqual([0, 0, 0]);
    expect(scores(indexed(texts), "?! ...")).toEqual([0, 0, 0]);
  });
});
