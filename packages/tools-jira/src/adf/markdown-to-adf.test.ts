import { describe, expect, it } from "vitest";
import { adfToMarkdown } from "./adf-to-markdown.js";
import { markdownToAdf } from "./markdown-to-adf.js";

const content = (markdown: string) => markdownToAdf(markdown).content;

describe("markdownToAdf", () => {
  it("makes a version 1 doc of headings, paragraphs, rules and hard breaks", () => {
    expect(markdownToAdf("# Title\n\nline one\\\nline two\n\n---")).toEqual({
      version: 1,
      type: "doc",
      content: [
        { type: "heading", attrs: { level: 1 }, content: [{ type: "text", text: "Title" }] },
        {
          type: "paragraph",
          content: [
            { type: "text", text: "line one" },
            { type: "hardBreak" },
            { type: "text", text: "line two" },
          ],
        },
        { type: "rule" },
      ],
    });
  });

  it("maps inline marks; code takes only a link beside it", () => {
    expect(content("**b** *e* `c` ~~s~~ [**l**](https://x.example) [`k`](https://k.example)")).toEqual([
      {
        type: "paragraph",
        content: [
          { type: "text", text: "b", marks: [{ type: "strong" }] },
          { type: "text", text: " " },
          { type: "text", text: "e", marks: [{ type: "em" }] },
          { type: "text", text: " " },
          { type: "text", text: "c", marks: [{ type: "code" }] },
          { type: "text", text: " " },
          { type: "text", text: "s", marks: [{ type: "strike" }] },
          { type: "text", text: " " },
          {
            type: "text",
            text: "l",
            marks: [{ type: "link", attrs: { href: "https://x.example" } }, { type: "strong" }],
          },
          { type: "text", text: " " },
          {
            type: "text",
            text: "k",
            marks: [{ type: "link", attrs: { href: "https://k.example" } }, { type: "code" }],
          },
        ],
      },
    ]);
  });

  it("maps nested and ordered lists, the start kept, and a code block's language", () => {
    expect(content("3. one\n   - a\n4. two\n\n```python\nprint(1)\n```")).toEqual([
      {
        type: "orderedList",
        attrs: { order: 3 },
        content: [
          {
            type: "listItem",
            content: [
              { type: "paragraph", content: [{ type: "text", text: "one" }] },
              {
                type: "bulletList",
                content: [
                  {
                    type: "listItem",
                    content: [{ type: "paragraph", content: [{ type: "text", text: "a" }] }],
                  },
                ],
              },
            ],
          },
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "two" }] }] },
        ],
      },
      { type: "codeBlock", attrs: { language: "python" }, content: [{ type: "text", text: "print(1)" }] },
    ]);
  });

  it("maps a GFM table, its first row as headers, and keeps a task item's box as text", () => {
    const [table, list] = content("| k | v |\n| - | - |\n| a | 1 |\n\n- [x] done");
    expect(table).toMatchObject({
      type: "table",
      content: [
        { type: "tableRow", content: [{ type: "tableHeader" }, { type: "tableHeader" }] },
        {
          type: "tableRow",
          content: [
            { type: "tableCell", content: [{ type: "paragraph", content: [{ type: "text", text: "a" }] }] },
            { type: "tableCell" },
          ],
        },
      ],
    });
    expect(list).toEqual({
      type: "bulletList",
      content: [
        {
          type: "listItem",
          content: [
            {
              type: "paragraph",
              content: [
                { type: "text", text: "[x] " },
                { type: "text", text: "done" },
              ],
            },
          ],
        },
      ],
    });
  });

  it("keeps what ADF has no node for as text: HTML, images, a heading inside a quote", () => {
    expect(content("<div>raw</div>\n\n![chart](https://x.example/c.png)\n\n> ## quoted")).toEqual([
      { type: "paragraph", content: [{ type: "text", text: "<div>raw</div>" }] },
      {
        type: "paragraph",
        content: [
          {
            type: "text",
            text: "chart",
            marks: [{ type: "link", attrs: { href: "https://x.example/c.png" } }],
          },
        ],
      },
      {
        type: "blockquote",
        content: [
          { type: "paragraph", content: [{ type: "text", text: "quoted", marks: [{ type: "strong" }] }] },
        ],
      },
    ]);
  });

  it("never makes an empty text node, and gives an empty document for empty input", () => {
    expect(markdownToAdf("")).toEqual({ version: 1, type: "doc", content: [] });
    expect(content("```\n```")).toEqual([{ type: "codeBlock" }]);
  });

  it("nests within its bound: quotes in quotes join one quote, lists past 24 levels become text", () => {
    // Deeper markdown is refused before it is parsed (markdown-bounds.ts).
    expect(content(`${"> ".repeat(32)}bottom`)).toEqual([
      { type: "blockquote", content: [{ type: "paragraph", content: [{ type: "text", text: "bottom" }] }] },
    ]);
    const list = Array.from({ length: 32 }, (_, level) => `${"  ".repeat(level)}- level ${level}`).join("\n");
    const rendered = JSON.stringify(markdownToAdf(list));
    expect(rendered).toContain("level 31");
    expect(rendered.split('"bulletList"').length - 1).toBe(25);
  });

  it("gives a quote inside a quote or a list item its container's blocks, as ADF requires", () => {
    expect(content("> > x\n>\n> y")).toEqual([
      {
        type: "blockquote",
        content: [
          { type: "paragraph", content: [{ type: "text", text: "x" }] },
          { type: "paragraph", content: [{ type: "text", text: "y" }] },
        ],
      },
    ]);
    expect(content("- > x")).toEqual([
      {
        type: "bulletList",
        content: [
          { type: "listItem", content: [{ type: "paragraph", content: [{ type: "text", text: "x" }] }] },
        ],
      },
    ]);
  });

  it("keeps a footnote reference and its definition as text", () => {
    expect(content("See this[^1].\n\n[^1]: The note.")).toEqual([
      {
        type: "paragraph",
        content: [
          { type: "text", text: "See this" },
          { type: "text", text: "[^1]" },
          { type: "text", text: "." },
        ],
      },
      { type: "paragraph", content: [{ type: "text", text: "[^1]: The note." }] },
    ]);
  });

  it("links only to http(s), mailto or a relative target; another link keeps its text alone", () => {
    const marksOf = (markdown: string) =>
      (content(markdown)[0]?.content ?? []).map((node) => node.marks?.[0]?.attrs?.href ?? null);
    expect(marksOf("[a](https://x.example) [b](mailto:a@x.example) [c](/browse/PROJ-1)")).toEqual([
      "https://x.example",
      null,
      "mailto:a@x.example",
      null,
      "/browse/PROJ-1",
    ]);
    const refused = content(
      "[empty]() [js](javascript:alert(1)) [tab](java&#9;script:x) [data](DATA:text/html,x)",
    );
    expect(JSON.stringify(refused)).not.toContain("marks");
    expect(adfToMarkdown({ type: "doc", content: refused }).markdown).toBe("empty js tab data");
  });
});

describe("markdown → ADF → markdown", () => {
  const roundTrips = [
    "# Heading one\n\n### Heading three",
    "Some **strong**, *em*, `code`, ~~strike~~ and [a link](https://example.com/path?q=1).",
    "- one\n- two\n  - nested\n  - nested too\n- three",
    "1. first\n2. second\n   1. inner\n3. third",
    "7. seven\n8. eight",
    "```ts\nconst x: number = 1;\n```",
    "> quoted\n>\n> twice",
    "before\n\n---\n\nafter",
    "line one\\\nline two",
    "| name | value |\n| --- | --- |\n| a | 1 |\n| b | 2 |",
    "Escaped \\*stars\\* and \\[brackets\\] stay text.",
  ];
  for (const markdown of roundTrips) {
    it(`keeps ${JSON.stringify(markdown.slice(0, 40))}`, () => {
      expect(adfToMarkdown(markdownToAdf(markdown)).markdown).toBe(markdown);
    });
  }
});
