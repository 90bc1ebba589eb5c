import { describe, expect, it } from "vitest";
import {
  type EmbeddingProvider,
  EmbeddingProviderError,
  embeddingText,
  HashedBagOfWordsEmbedding,
  HybridToolSearch,
} from "./embedding-provider.js";
import { toSearchDocument } from "./from-tool.js";
import { schemaText } from "./schema-text.js";
import { splitIdentifier, stem, tokenize } from "./tokenize.js";
import { type SearchDocument, ToolSearchIndex } from "./tool-search-index.js";

const catalogue: SearchDocument[] = [
  {
    name: "fetch_url",
    description: "Download a web page over HTTP and return its content as Markdown.",
    category: "web",
    parameters: {
      type: "object",
      properties: {
        url: { type: "string", description: "Address of the page." },
        format: { type: "string", enum: ["markdown", "text"] },
      },
    },
  },
  { name: "web_search", description: "Search the internet and return result links.", category: "web" },
  {
    name: "sql_query",
    description: "Run a read-only SQL statement against the database.",
    category: "data",
    parameters: {
      type: "object",
      properties: { statement: { type: "string" }, dialect: { enum: ["postgres", "sqlite"] } },
    },
  },
  { name: "send_email", description: "Send an email message to a recipient.", category: "communication" },
  { name: "getWeatherForecast", description: "Weather forecast for a city.", category: "general" },
  { name: "math.factorial", description: "Calculate the factorial of a number.", category: "math" },
];

describe("tokenize", () => {
  it("splits identifiers, lowercases, drops stop words and stems", () => {
    expect(splitIdentifier("getWeatherForecast")).toBe("get Weather Forecast");
    expect(tokenize("Can you fetch_url the pages of HTTPServer?")).toEqual([
      "fetch",
      "url",
      "page",
      "http",
      "server",
    ]);
    expect(stem("calculating")).toBe(stem("calculated"));
    expect(stem("calculation")).toBe(stem("calculate"));
  });

  it("drops English clitics with their apostrophe instead of leaving stray letters", () => {
    expect(tokenize("I'm sure that's the company's weather, we'll see; don't")).toEqual(
      tokenize("I sure that the company weather, we see; don"),
    );
    expect(tokenize("It\u2019s Käärijä's song")).toEqual(["käärijä", "song"]);
    expect(tokenize("user's_name o'clock")).toEqual(["user", "name", "o", "clock"]);
  });
});

describe("schemaText", () => {
  it("reads property names, descriptions and string enum values, a bounded number of them", () => {
    const text = schemaText({
      type: "object",
      properties: {
        event_type: { type: "string", description: "Kind of event.", enum: ["Music", "Theater", 3] },
        country: { type: "string", enum: Array.from({ length: 80 }, (_, i) => `country${i}`) },
      },
    });
    expect(text).toBe(
      ["event_type", "Kind of event.", "Music", "Theater", "country"]
        .concat(Array.from({ length: 50 }, (_, i) => `country${i}`))
        .join(" "),
    );
  });
});

describe("ToolSearchIndex", () => {
  const index = new ToolSearchIndex(catalogue);

  it("ranks a fetch-like tool first for a query about reading a web page", () => {
    expect(index.search("read the contents of a web page")[0]?.name).toBe("fetch_url");
    expect(index.search("download this url")[0]?.name).toBe("fetch_url");
  });

  it("matches snake_case, camelCase and dotted name parts", () => {
    expect(index.search("email")[0]?.name).toBe("send_email");
    expect(index.search("weather in Paris")[0]?.name).toBe("getWeatherForecast");
    expect(index.search("factorial of 5")[0]?.name).toBe("math.factorial");
  });

  it("indexes parameter names, enum values and categories", () => {
    expect(index.search("statement")[0]?.name).toBe("sql_query");
    expect(index.search("communication")[0]?.name).toBe("send_email");
    expect(index.search("a markdown or plain text page")[0]?.name).toBe("fetch_url");
    expect(index.search("postgres")[0]?.name).toBe("sql_query");
  });

  it("breaks ties by name", () => {
    const twins = new ToolSearchIndex([
      { name: "b_tool", description: "convert currency" },
      { name: "a_tool", description: "convert currency" },
      { name: "c_tool", description: "convert currency" },
    ]);
    const hits = twins.search("convert currency");
    expect(hits.map((hit) => hit.name)).toEqual(["a_tool", "b_tool", "c_tool"]);
    expect(new Set(hits.map((hit) => hit.score)).size).toBe(1);
  });

  it("respects the filter and the limit", () => {
    const hits = index.search("web page search", { filter: (document) => document.name !== "fetch_url" });
    expect(hits.map((hit) => hit.name)).not.toContain("fetch_url");
    expect(hits[0]?.name).toBe("web_search");
    expect(index.search("web", { limit: 1 })).toHaveLength(1);
    expect(index.search("web", { limit: 0 })).toEqual([]);
  });

  it("handles empty, stop-word-only, huge and hostile queries", () => {
    expect(index.search("")).toEqual([]);
    expect(index.search("can you please help me")).toEqual([]);
    expect(index.search("?!@#$%^&*()[]{}\u0000\uFFFF")).toEqual([]);
    expect(index.search("__proto__ constructor toString hasOwnProperty")).toEqual([]);
    const huge = "web ".repeat(500_000);
    const started = performance.now();
    expect(index.search(huge)[0]?.name).toBe("web_search");
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(index.search("a".repeat(1_000_000))).toEqual([]);
  });

  it("adds, replaces and removes documents incrementally", () => {
    const live = new ToolSearchIndex(catalogue);
    expect(live.remove("fetch_url")).toBe(true);
    expect(live.remove("fetch_url")).toBe(false);
    expect(live.search("web page").map((hit) => hit.name)).not.toContain("fetch_url");
    live.add({ name: "fetch_url", description: "Read a web page." });
    expect(live.search("read web page")[0]?.name).toBe("fetch_url");
    live.add({ name: "fetch_url", description: "Translate text." });
    expect(live.size).toBe(catalogue.length);
    expect(live.search("translate")[0]?.name).toBe("fetch_url");
    expect(live.search("web page").map((hit) => hit.name)).not.toContain("fetch_url");
  });

  it("survives self-referencing and deeply nested schemas", () => {
    const cyclic: Record<string, unknown> = { type: "object" };
    cyclic.properties = { self: cyclic, city: { type: "string", description: "City name" } };
    const deep = new ToolSearchIndex([{ name: "odd", description: "Odd schema.", parameters: cyclic }]);
    expect(deep.search("city")[0]?.name).toBe("odd");
  });

  it("maps a registry tool to a document", () => {
    const document = toSearchDocument({
      name: "fetch_url",
      description: "Fetch.",
      category: "web" as never,
      inputJsonSchema: { type: "object" },
    });
    expect(document).toEqual({
      name: "fetch_url",
      description: "Fetch.",
      category: "web",
      parameters: { type: "object" },
    });
  });
});

describe("ToolSearchIndex filter", () => {
  const many: SearchDocument[] = Array.from({ length: 500 }, (_, index) => ({
    name: `record_tool_${index}`,
    description: `Reads customer records ${"in detail ".repeat(index % 7)}from store ${index % 13}.`,
  }));
  const index = new ToolSearchIndex(many);

  it("ranks what passes exactly as filtering the whole ranking would, asking about the best hits only", () => {
    for (const keep of [(n: number) => n % 3 === 0, (n: number) => n > 450, (n: number) => n === 7]) {
      const asked: string[] = [];
      const filtered = index.search("customer records store", {
        limit: 5,
        filter: (document) => {
          asked.push(document.name);
          return keep(Number(document.name.split("_").at(-1)));
        },
      });
      const whole = index
        .search("customer records store", { limit: 500 })
        .filter((hit) => keep(Number(hit.name.split("_").at(-1))))
        .slice(0, 5);
      expect(filtered).toEqual(whole);
      if (keep(0)) expect(asked.length).toBeLessThan(many.length);
    }
    expect(index.search("customer", { limit: 3, filter: () => false })).toEqual([]);
  });
});

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

  it("mixes the two rankings by weight: 0 keeps the lexical order, 1 the embedding's", async () => {
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
    const search = async (semanticWeight: number, query: string) => {
      const hybrid = new HybridToolSearch(new ToolSearchIndex(), byTopic, { semanticWeight });
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
    let documentsEmbedded = false;
    const failing: EmbeddingProvider = {
      embed: (texts) => {
        if (documentsEmbedded) throw new Error("HTTP 503");
        documentsEmbedded = true;
        return new HashedBagOfWordsEmbedding(16).embed(texts);
      },
    };
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

  it("embeds a document as its name in words, category, description and then its inputs", () => {
    expect(embeddingText(catalogue[0]!)).toBe(
      "fetch url (web): Download a web page over HTTP and return its content as Markdown. " +
        "Inputs: url Address of the page. format markdown text",
    );
    expect(embeddingText(catalogue[1]!)).toBe(
      "web search (web): Search the internet and return result links.",
    );
  });

  it("the test double gives similar texts closer vectors", () => {
    const [a = [], b = [], c = []] = new HashedBagOfWordsEmbedding(128).embed([
      "fetch web page",
      "web page fetcher",
      "send email",
    ]);
    const dot = (x: number[], y: number[]) => x.reduce((sum, value, i) => sum + value * (y[i] ?? 0), 0);
    expect(dot(a, b)).toBeGreaterThan(dot(a, c));
  });
});
