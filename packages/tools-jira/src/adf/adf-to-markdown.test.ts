import { describe, expect, it } from "vitest";
import type { AdfNode } from "./adf-node.js";
import { adfToMarkdown } from "./adf-to-markdown.js";

const doc = (...content: AdfNode[]): AdfNode => ({ type: "doc", version: 1, content }) as AdfNode;
const text = (value: string, ...marks: AdfNode["marks"] & object): AdfNode =>
  marks.length > 0 ? { type: "text", text: value, marks } : { type: "text", text: value };
const paragraph = (...content: AdfNode[]): AdfNode => ({ type: "paragraph", content });
const md = (node: AdfNode) => adfToMarkdown(node).markdown;

describe("adfToMarkdown", () => {
  it("writes headings, paragraphs, rules and hard breaks", () => {
    expect(
      md(
        doc(
          { type: "heading", attrs: { level: 2 }, content: [text("Plan")] },
          paragraph(text("line one"), { type: "hardBreak" }, text("line two")),
          { type: "rule" },
        ),
      ),
    ).toBe("## Plan\n\nline one\\\nline two\n\n---");
  });

  it("writes inline marks, whitespace kept outside their delimiters, link outermost", () => {
    expect(
      md(
        doc(
          paragraph(
            text("bold ", { type: "strong" }),
            text("it", { type: "em" }),
            text(" "),
            text("x()", { type: "code" }),
            text(" "),
            text("gone", { type: "strike" }),
            text(" "),
            text("docs", { type: "link", attrs: { href: "https://example.com/a b" } }, { type: "strong" }),
          ),
        ),
      ),
    ).toBe("**bold** *it* `x()` ~~gone~~ [**docs**](<https://example.com/a b>)");
  });

  it("writes nested bullet and ordered lists, an ordered list's start kept", () => {
    const item = (...content: AdfNode[]): AdfNode => ({ type: "listItem", content });
    expect(
      md(
        doc({
          type: "orderedList",
          attrs: { order: 3 },
          content: [
            item(paragraph(text("first")), {
              type: "bulletList",
              content: [item(paragraph(text("inner a"))), item(paragraph(text("inner b")))],
            }),
            item(paragraph(text("second"))),
          ],
        }),
      ),
    ).toBe("3. first\n   - inner a\n   - inner b\n4. second");
  });

  it("writes a code block with its language, its fence longer than any run of backticks in it", () => {
    expect(
      md(doc({ type: "codeBlock", attrs: { language: "ts" }, content: [text("const a = 1;\n```")] })),
    ).toBe("````ts\nconst a = 1;\n```\n````");
  });

  it("writes quotes, and tables with escaped pipes", () => {
    expect(md(doc({ type: "blockquote", content: [paragraph(text("a")), paragraph(text("b"))] }))).toBe(
      "> a\n>\n> b",
    );
    const cell = (type: string, value: string): AdfNode => ({ type, content: [paragraph(text(value))] });
    expect(
      md(
        doc({
          type: "table",
          content: [
            { type: "tableRow", content: [cell("tableHeader", "k"), cell("tableHeader", "v")] },
            { type: "tableRow", content: [cell("tableCell", "a|b"), cell("tableCell", "1")] },
          ],
        }),
      ),
    ).toBe("| k | v |\n| --- | --- |\n| a\\|b | 1 |");
  });

  it("escapes text markdown would read as syntax", () => {
    expect(md(doc(paragraph(text("# not a heading *or* [link] 1. x"))))).toBe(
      "\\# not a heading \\*or\\* \\[link\\] 1. x",
    );
    expect(md(doc(paragraph(text("1. not a list"))))).toBe("1\\. not a list");
  });

  it("degrades unknown nodes to their text, never dropping them and never failing", () => {
    const result = md(
      doc(
        paragraph(
          text("ping "),
          { type: "mention", attrs: { id: "5b10a2844c20165700ede21g", text: "@Mia Krystof" } },
          text(" "),
          { type: "emoji", attrs: { shortName: ":grinning:", text: "😀" } },
          text(" "),
          { type: "emoji", attrs: { shortName: ":party:" } },
          text(" "),
          { type: "inlineCard", attrs: { url: "https://example.com/x" } },
          text(" "),
          { type: "sparkle", attrs: { text: "made-up inline" } },
        ),
        { type: "panel", attrs: { panelType: "info" }, content: [paragraph(text("Heads up"))] },
        {
          type: "mediaSingle",
          content: [{ type: "media", attrs: { id: "abc", type: "file", collection: "x", alt: "chart.png" } }],
        },
        { type: "mediaGroup", content: [{ type: "media", attrs: { id: "def", type: "file" } }] },
        { type: "hologram" },
        { type: "wormhole", content: [{ type: "text", text: "text inside a made-up block" }] },
      ),
    );
    expect(result).toBe(
      [
        "ping @Mia Krystof 😀 :party: <https://example.com/x> made-up inline",
        "Heads up",
        "[media: chart.png]",
        "[media]",
        "[hologram]",
        "text inside a made-up block",
      ].join("\n\n"),
    );
  });

  it("bounds the output and reads nesting past its depth as text", () => {
    const long = adfToMarkdown(doc(paragraph(text("x".repeat(100)))), { maxChars: 10 });
    expect(long).toEqual({ markdown: `${"x".repeat(10)}…`, truncated: true });
    let deep: AdfNode = paragraph(text("bottom"));
    for (let level = 0; level < 5_000; level++) deep = { type: "blockquote", content: [deep] };
    const rendered = adfToMarkdown(doc(deep));
    expect(rendered.markdown).toContain("bottom");
    expect(adfToMarkdown(undefined)).toEqual({ markdown: "", truncated: false });
  });

  it("reads a huge vendor document in one pass: long backtick runs, many rows, deeply nested media", () => {
    // Each of these once spread every run or row into Math.max, or recursed once per level: a stack overflow.
    const ticks = "`a".repeat(200_000);
    expect(md(doc({ type: "codeBlock", content: [text(ticks)] })).startsWith("```\n`a`a")).toBe(true);
    expect(md(doc(paragraph(text("``` x", { type: "code" }))))).toBe("```` ``` x ````");
    expect(adfToMarkdown(doc(paragraph(text(ticks, { type: "code" })))).truncated).toBe(true);
    const rows = Array.from({ length: 150_000 }, () => ({ type: "tableRow", content: [] }));
    expect(md(doc({ type: "table", content: rows })).startsWith("|  |\n| --- |\n|  |")).toBe(true);
    let media: AdfNode = { type: "media", attrs: { alt: "deep.png" } };
    for (let level = 0; level < 100_000; level++) media = { type: "mediaSingle", content: [media] };
    expect(md(doc(media))).toBe("[media: deep.png]");
    expect(
      md(
        doc({
          type: "mediaSingle",
          content: [{ type: "media" }, { type: "caption", content: [text("Fig 1")] }],
        }),
      ),
    ).toBe("[media] Fig 1");
  });

  it("keeps whitespace around marked text in linear time", () => {
    const started = performance.now();
    const spaced = `a${" ".repeat(40_000)}b`;
    expect(md(doc(paragraph(text(`${spaced}  `, { type: "strong" }), text("c"))))).toBe(`**${spaced}**  c`);
    // A lazy regular expression took seconds here.
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it("keeps a paragraph line's leading spaces, four of them at its start not read as code", () => {
    expect(md(doc(paragraph(text("first"), { type: "hardBreak" }, text("  indented"))))).toBe(
      "first\\\n  indented",
    );
    expect(md(doc(paragraph(text("    # four"))))).toBe("&#32;   \\# four");
  });
});
