import { describe, expect, it } from "vitest";
import { markdownToBlocks } from "./markdown-to-blocks.js";

const text = (content: string) => ({ rich_text: [{ type: "text", text: { content } }] });

describe("markdownToBlocks", () => {
  it("reads headings, items, to-dos, quotes, code, dividers and paragraphs in order", () => {
    const markdown = [
      "# One",
      "## Two",
      "#### Four",
      "Para line 1",
      "para line 2",
      "",
      "* star",
      "+ plus",
      "3) third",
      "- [X] done",
      "> a",
      "> b",
      "***",
      "~~~sh",
      "ls -la",
      "",
      "~~~",
      "```brainfuck",
      "+++",
      "```",
    ].join("\r\n");
    expect(markdownToBlocks(markdown)).toEqual([
      { object: "block", type: "heading_1", heading_1: text("One") },
      { object: "block", type: "heading_2", heading_2: text("Two") },
      { object: "block", type: "heading_3", heading_3: text("Four") },
      { object: "block", type: "paragraph", paragraph: text("Para line 1\npara line 2") },
      { object: "block", type: "bulleted_list_item", bulleted_list_item: text("star") },
      { object: "block", type: "bulleted_list_item", bulleted_list_item: text("plus") },
      { object: "block", type: "numbered_list_item", numbered_list_item: text("third") },
      { object: "block", type: "to_do", to_do: { ...text("done"), checked: true } },
      { object: "block", type: "quote", quote: text("a\nb") },
      { object: "block", type: "divider", divider: {} },
      { object: "block", type: "code", code: { ...text("ls -la\n"), language: "shell" } },
      { object: "block", type: "code", code: { ...text("+++"), language: "plain text" } },
    ]);
  });

  it("keeps an unclosed fence's text as code, and a paragraph ends where an item starts", () => {
    expect(markdownToBlocks("intro\n- item\n```\nlast")).toEqual([
      { object: "block", type: "paragraph", paragraph: text("intro") },
      { object: "block", type: "bulleted_list_item", bulleted_list_item: text("item") },
      { object: "block", type: "code", code: { ...text("last"), language: "plain text" } },
    ]);
  });

  it("flattens indented items, and makes nothing of blank input", () => {
    expect(markdownToBlocks("- a\n  - b")).toHaveLength(2);
    expect(markdownToBlocks("\n\n")).toEqual([]);
  });

  it("keeps the order of a quote and the paragraph after it (and before it)", () => {
    expect(markdownToBlocks("> quoted first\nplain second\n> quoted third")).toEqual([
      { object: "block", type: "quote", quote: text("quoted first") },
      { object: "block", type: "paragraph", paragraph: text("plain second") },
      { object: "block", type: "quote", quote: text("quoted third") },
    ]);
  });

  it("reads a long marker line holding U+2028 in linear time (no backtracking)", () => {
    const spaces = " ".repeat(40_000);
    const started = performance.now();
    for (const marker of ["#", "-", "1.", "- [ ]"]) {
      const [block] = markdownToBlocks(`${marker}${spaces}a\u2028a`);
      expect(JSON.stringify(block)).toContain("a\u2028a");
    }
    expect(performance.now() - started).toBeLessThan(500);
  });
});
