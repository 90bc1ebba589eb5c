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
    expect(page.markdown).toContain("The tide turns twice a day.");
    expect(page.markdown).toContain("[the tables](https://harbour.example/tables)");
    expect(page.markdown).not.toContain("MENU");
    expect(page.markdown).not.toContain("FOOTER");
    expect(page.title).toBeTruthy();
  });

  it("converts the whole page when Readability finds nothing in it", () => {
    const page = pageToMarkdown("<html><head><title>Empty</title></head><body></body></html>");
    expect(page).toEqual({ title: "Empty", markdown: "", links: [] });
  });

  it("lists the page's http(s) links from its whole DOM, against its <base>, entities decoded, bounded", () => {
    const html = `<html><head><base href="/docs/"></head><body><nav><a href="intro?a=1&amp;b=2">Intro</a></nav>
      <a href='javascript:alert(1)'>no</a><a href="mailto:x@example.org">no</a><a href=https://other.example/z>z</a>
      <a>no href</a><a href="https://[bad">bad</a><a href="/top#part">top</a></body></html>`;
    const page = pageToMarkdown(html, "https://site.example/a/b", { maxLinks: 2000 });
    expect(page.links).toEqual([
      "https://site.example/docs/intro?a=1&b=2",
      "https://other.example/z",
      "https://site.example/top#part",
    ]);
    expect(pageToMarkdown(html, "https://site.example/", { maxLinks: 2 }).links).toHaveLength(2);
    expect(pageToMarkdown(html, "https://site.example/").links).toEqual([]);
  });

  it("reads the links of a hostile page in linear time (a pattern over '<a <a <a …' took seconds)", () => {
    // 300 KB of unclosed anchors took a link pattern 26 s; a DOM reads a MiB of them in well under one.
    const html = `<p>x</p>${"<a ".repeat(350_000)}`;
    const started = performance.now();
    const page = pageToMarkdown(html, "https://site.example/", { maxLinks: 2000 });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(page.links).toEqual([]);
  });
});
