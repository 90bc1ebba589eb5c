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
    // Letters beyond ASCII are letters, not separators: " käärijä " gives 7 + 6 + 5 pieces.
    expect(hashes("Käärijä")).toHaveLength(18);
  });

  it("gives different pieces different hashes and reads a bounded part of a text", () => {
    expect(new Set(hashes("abcdefgh")).size).toBe(hashes("abcdefgh").length);
    expect(hashes("trx")).not.toContain(hashes("tri")[1]);
    // Past the first thousand characters nothing more is read, however the text goes on.
    const long = `${"word ".repeat(200)}`;
    expect(hashes(`${long}tail`)).toEqual(hashes(`${long}different tail`));
    expect(hashes(`${long}${"x".repeat(1_000_000)}`)).toEqual(hashes(`${long}tail`));
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

  it("scores after any churn of sets and deletes exactly as an index built afresh from what is left", () => {
    const words = [
      "hotel",
      "booking",
      "weather",
      "forecast",
      "stock",
      "price",
      "genetic",
      "similar",
      "käärijä",
    ];
    let seed = 7;
    const random = (below: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % below;
    };
    const live = new CharacterNgramIndex();
    const texts = new Map<number, string>();
    for (let step = 0; step < 3_000; step++) {
      const id = random(40);
      if (random(3) === 0) {
        live.delete(id);
        texts.delete(id);
      } else {
        const text = Array.from(
          { length: 1 + random(5) },
          () => `${words[random(words.length)]}${random(50)}`,
        ).join(" ");
        live.set(id, text);
        texts.set(id, text);
      }
      if (step % 500 === 499) {
        const fresh = new CharacterNgramIndex();
        for (const [kept, text] of texts) fresh.set(kept, text);
        expect(live.size).toBe(fresh.size);
        for (const query of ["hotel booking", "genetic similar price", "käärijä 12"]) {
          const expected = scores(fresh, query, 40);
          scores(live, query, 40).forEach((score, i) => {
            expect(score).toBeCloseTo(expected[i]!, 6);
          });
        }
      }
    }
  });

  it("finds nothing in an empty index or for a query without letters", () => {
    expect(scores(new CharacterNgramIndex(), "anything")).toEqual([0, 0, 0]);
    expect(scores(indexed(texts), "?! ...")).toEqual([0, 0, 0]);
  });
});
