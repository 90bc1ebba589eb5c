import { describe, expect, it } from "vitest";
import { MAX_EMPHASIS_DELIMITERS, MAX_MARKDOWN_NESTING, markdownOverBounds } from "./markdown-bounds.js";

const indentedList = (levels: number) =>
  Array.from({ length: levels }, (_, level) => `${"  ".repeat(level)}- level ${level}`).join("\n");

describe("markdownOverBounds", () => {
  it("passes ordinary markdown: nested lists and quotes, bold text, snake_case words, code", () => {
    expect(markdownOverBounds(indentedList(10))).toBeUndefined();
    expect(markdownOverBounds("> > quoted twice\n\n1. one\n   - a\n\n**b** _e_ ~~s~~")).toBeUndefined();
    expect(markdownOverBounds("the_field_name ".repeat(2_000))).toBeUndefined();
    expect(markdownOverBounds(`${"> ".repeat(MAX_MARKDOWN_NESTING)}deep enough`)).toBeUndefined();
    expect(markdownOverBounds("*".repeat(MAX_EMPHASIS_DELIMITERS))).toBeUndefined();
  });

  it("refuses quotes or lists nested past the bound on one line, however written", () => {
    expect(markdownOverBounds(">".repeat(31_000))).toMatch(/nested 31000 deep on one line; at most 32/);
    expect(markdownOverBounds(`text\n${"> ".repeat(MAX_MARKDOWN_NESTING + 1)}x`)).toMatch(/nested 33 deep/);
    expect(markdownOverBounds(indentedList(200))).toMatch(/nested \d+ deep/);
    expect(markdownOverBounds(`${"- 1. * + ".repeat(10)}x`)).toMatch(/nested 40 deep/);
  });

  it("refuses a flood of emphasis delimiters", () => {
    expect(markdownOverBounds("*a".repeat(16_000))).toMatch(/16000 emphasis characters/);
    expect(markdownOverBounds("~".repeat(MAX_EMPHASIS_DELIMITERS + 1))).toMatch(/at most 2000/);
    expect(markdownOverBounds(" _a_ ".repeat(1_001))).toMatch(/emphasis/);
  });
});
