/**
 * @module find_tools sends a model to web_scrape before the browser: with the real declarations of both
 * packages, loaded by name, a query about reading a page ranks web_scrape above every browser_ tool.
 */
import { browserToolkit } from "@toolreg/tools-browser";
import { scrapeToolkit } from "@toolreg/tools-scrape";
import { describe, expect, it } from "vitest";
import { metaTools } from "../../src/catalog/meta/index.js";
import { createTestHarness, type TestHarness } from "../../src/test/test-harness.js";

function served(): TestHarness {
  let harness: TestHarness | undefined;
  const meta = metaTools({ seam: () => (harness as TestHarness).seam });
  harness = createTestHarness([...scrapeToolkit.declarations(), ...browserToolkit.declarations(), ...meta]);
  return harness;
}

async function found(query: string, limit: number): Promise<string[]> {
  const { seam, context } = served();
  const answer = await seam.call(context(), "find_tools", { query, limit });
  if (!answer.ok) throw new Error(`${answer.error.code}: ${answer.error.message}`);
  return (answer.data as { tools: { name: string }[] }).tools.map((tool) => tool.name);
}

describe("find_tools between the scraper and the browser", () => {
  it.each([
    "read a web page",
    "read the text of the page at a URL",
    "get the main content of a website",
    "open a web page and read it",
  ])("ranks web_scrape above every browser tool for %j", async (query) => {
    const names = await found(query, 20);
    const scrape = names.indexOf("web_scrape");
    expect(scrape, names.join(", ")).toBeGreaterThanOrEqual(0);
    const firstBrowser = names.findIndex((name) => name.startsWith("browser_"));
    if (firstBrowser !== -1) expect(scrape, names.join(", ")).toBeLessThan(firstBrowser);
  });

  it("still finds the browser for what only a browser does", async () => {
    expect((await found("click a button on a web page", 3))[0]).toBe("browser_click");
  });
});
