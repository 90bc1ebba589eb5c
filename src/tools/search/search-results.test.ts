/** @module The normalisation every provider's hits go through, on the edges the fakes do not reach. */
import { describe, expect, it } from "vitest";
import { normaliseResults, renderResults } from "./search-results.js";

const hit = (url: string, extra: Partial<{ title: string; snippet: string; published: string }> = {}) => ({
  title: "A page",
  url,
  snippet: "Some text.",
  ...extra,
});

describe("normaliseResults", () => {
  it("keeps http and https pages only, one per page whatever the fragment, up to the count", () => {
    const results = normaliseResults(
      [
        hit("data:text/html,<script>alert(1)</script>"),
        hit("HTTPS://Docs.Example/a#intro"),
        hit("https://docs.example/a#usage"),
        hit("/relative/path"),
        hit("mailto:someone@docs.example"),
        hit("https://docs.example/b"),
        hit("https://docs.example/c"),
      ],
      2,
    );
    expect(results.map((result) => [result.position, result.url])).toEqual([
      [1, "https://docs.example/a#intro"],
      [2, "https://docs.example/b"],
    ]);
  });

  it("drops a URL too long for any tool to open, and cuts long text to a bound it marks", () => {
    const [result, ...rest] = normaliseResults(
      [
        hit(`https://long.example/${"a".repeat(2100)}`),
        hit("https://ok.example/", {
          title: "T".repeat(400),
          snippet: "word ".repeat(400),
          published: " 2 days\nago ",
        }),
      ],
      10,
    );
    expect(rest).toEqual([]);
    expect(result?.url).toBe("https://ok.example/");
    expect(result?.title).toBe(`${"T".repeat(300)}…`);
    expect(result?.snippet.length).toBe(1001);
    expect(result?.snippet.endsWith("…")).toBe(true);
    expect(result?.published).toBe("2 days ago");
  });

  it("leaves out a published date the vendor did not give", () => {
    const [result] = normaliseResults([hit("https://a.example/", { published: "  " })], 1);
    expect(result).not.toHaveProperty("published");
  });
});

describe("renderResults", () => {
  it("says what narrowed the search and that the deployment capped it", () => {
    const results = normaliseResults([hit("https://a.example/")], 1);
    const text = renderResults({
      label: "Tavily",
      query: "tea",
      results,
      filters: ["past week"],
      cappedAt: 5,
    });
    expect(text.split("\n")[0]).toBe(
      'Tavily: 1 result for "tea" (past week); this deployment returns at most 5.',
    );
    expect(text).toContain("1. A page\n   https://a.example/\n   Some text.");
  });
});
