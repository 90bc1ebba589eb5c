import { describe, expect, it } from "vitest";
import { searchDocuments as catalogue } from "../../../test/support/search-documents.js";
import { toSearchDocument } from "./from-tool.js";
import { schemaText } from "./schema-text.js";
import { splitIdentifier, stem, tokenize } from "./tokenize.js";
import { type SearchDocument, ToolSearchIndex } from "./tool-search-index.js";

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

  it("says what share of a query's weight each named tool holds, rarer words weighing more", () => {
    const index = new ToolSearchIndex([
      { name: "weather_forecast", description: "Forecast the weather for a city." },
      { name: "weather_history", description: "Past weather for a city." },
      { name: "city_guide", description: "Sights of a city." },
    ]);
    const [forecast, history, guide, unknown] = index.coverage("weather forecast for Paris", [
      "weather_forecast",
      "weather_history",
      "city_guide",
      "not_indexed",
    ]);
    // "paris" is in no tool, so even the best holds less than all of the query.
    expect(forecast).toBeGreaterThan(history!);
    expect(forecast).toBeLessThan(1);
    expect(history).toBeGreaterThan(0);
    expect(guide).toBe(0);
    expect(unknown).toBe(0);
    expect(index.coverage("weather forecast", ["weather_forecast"])).toEqual([1]);
    // "forecast" is rarer than "weather" (one tool against two), so it weighs more.
    const [onlyForecast] = index.coverage("weather forecast", ["weather_forecast"]);
    const [onlyWeather] = index.coverage("weather forecast", ["weather_history"]);
    expect(onlyWeather).toBeLessThan(0.5);
    expect(onlyForecast! - onlyWeather!).toBeGreaterThan(0.5);
    expect(index.coverage("the of and", ["weather_forecast"])).toEqual([0]);
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
