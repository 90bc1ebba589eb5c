import { describe, expect, it } from "vitest";
import { pageToMarkdown } from "./page-to-markdown.js";

const paragraph = (text: string) =>
  `<p>${text} It goes on long enough, with commas, clauses, and sentences, for Readability to take it as an article's body.</p>`;

describe("pageToMarkdown", () => {
  it("keeps the article and drops the navigation and footer around it, links made absolute", () => {
    const html = `<html><head><title>Site · Tides</title></head><body><nav>MENU <a href="/home">Home</a></nav>
      <article><h1>Tides</h1>${paragraph("The tide turns twice a day.")}${paragraph('See <a href="/tables">the tables</a>.')}${paragraph("Spring tides are higher.")}</article>
      <footer>FOOTER</footer></body></html>`;
    const page = pageToMarkdown(html, "https://harbour.example/guide/");
    expect(page.mainContent).toBe(true);
    expect(page.markdown).toContain("The tide turns twice a day.");
    expect(page.markdown).toContain("[the tables](https://harbour.example/tables)");
    expect(page.markdown).not.toContain("MENU");
    expect(page.markdown).not.toContain("FOOTER");
    expect(page.title).toBeTruthy();
  });

  it("converts the whole page when Readability finds nothing in it", () => {
    const page = pageToMarkdown("<html><head><title>Empty</title></head><body></body></html>");
    expect(page).toEqual({ title: "Empty", markdown: "", mainContent: false });
  });
});
