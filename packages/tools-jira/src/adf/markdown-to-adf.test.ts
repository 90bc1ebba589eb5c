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

  it("survives hostile nesting within its bound", () => {
    const deep = `${">".repeat(2_000)} bottom`;
    const rendered = JSON.stringify(markdownToAdf(deep));
    expect(rendered).toContain("bottom");
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
