import { describe, expect, it } from "vitest";
import { searchDocuments as catalogue } from "../../../test/support/search-documents.js";
import { embeddingText, HashedBagOfWordsEmbedding } from "./embedding-provider.js";

describe("embedding-provider", () => {
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
