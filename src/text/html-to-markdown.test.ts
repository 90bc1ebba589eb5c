/** @module HTML to markdown: tables written as markdown tables, the first row a header, no cell lost or split. */
import { describe, expect, it } from "vitest";
import { htmlToMarkdown } from "./html-to-markdown.js";

const md = (html: string) => htmlToMarkdown(html).markdown;

describe("htmlToMarkdown tables", () => {
  it("writes a table with a header as a markdown table", () => {
    expect(
      md(
        "<table><thead><tr><th>Name</th><th>Age</th></tr></thead><tbody><tr><td>Ada</td><td>36</td></tr></tbody></table>",
      ),
    ).toBe("| Name | Age |\n| --- | --- |\n| Ada | 36 |");
  });

  it("makes the first row the header of a table without one, as a Word table comes", () => {
    expect(
      md(
        "<table><tr><td><p>Item</p></td><td><p>Price</p></td></tr><tr><td><p>Bolt</p></td><td><p>1</p></td></tr></table>",
      ),
    ).toBe("| Item | Price |\n| --- | --- |\n| Bolt | 1 |");
  });

  it("keeps each cell on its line: pipes escaped, line breaks and paragraphs joined, empty cells kept", () => {
    expect(
      md(
        "<table><tr><th>a|b</th><th></th></tr><tr><td><p>one</p><p>two</p></td><td>x<br>y</td></tr></table>",
      ),
    ).toBe("| a\\|b |  |\n| --- | --- |\n| one two | x y |");
  });

  it("pads short rows and spans columns, a hostile colspan bounded", () => {
    expect(
      md('<table><tr><td colspan="2">wide</td></tr><tr><td>a</td><td>b</td><td>c</td></tr></table>'),
    ).toBe("| wide | | |\n| --- | --- | --- |\n| a | b | c |");
    const huge = md('<table><tr><td colspan="100000">x</td></tr></table>');
    expect(huge.split("\n")[1]?.match(/---/g)).toHaveLength(50);
  });

  it("puts a caption above the table and flattens a nested table into its cell", () => {
    expect(
      md(
        "<table><caption>Prices</caption><tr><td>a</td><td><table><tr><td>in</td></tr></table></td></tr></table>",
      ),
    ).toBe("Prices\n\n| a | \\| in \\| \\| --- \\| |\n| --- | --- |");
  });

  it("drops a relative link to its text when there is no page to resolve it against", () => {
    expect(md('<p><a href="/x">here</a> and <a href="https://example.com/y">there</a></p>')).toBe(
      "here and [there](https://example.com/y)",
    );
  });
});

describe("htmlToMarkdown on hostile pages", () => {
  it("reads a page of 100,000 title openings with no closing one in well under a second", () => {
    const started = performance.now();
    expect(htmlToMarkdown(`<title>${"<title>".repeat(100_000)}`).title).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it.each([
    ["spaces in <pre>", `<pre>a${" ".repeat(1_000_000)}b</pre>`],
    ["line breaks in <pre>", `<pre>a${"\n".repeat(1_000_000)}b</pre>`],
    ["&nbsp; in a paragraph", `<p>a${"&nbsp;".repeat(300_000)}b</p>`],
  ])("reads a run of a million %s at once, keeping the text around it", (_, html) => {
    // Uncut, turndown took 2 s for 50,000 of these and grew with the square of the run.
    const started = performance.now();
    const { markdown } = htmlToMarkdown(html);
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(markdown.startsWith("a") || markdown.includes("\na")).toBe(true);
    expect(markdown).toMatch(/b(\n```)?$/);
    expect(markdown.length).toBeLessThan(400);
  });

  it("keeps a run of whitespace up to 256 as it is", () => {
    expect(htmlToMarkdown(`<pre>a${" ".repeat(200)}b</pre>`).markdown).toContain(`a${" ".repeat(200)}b`);
  });
});
