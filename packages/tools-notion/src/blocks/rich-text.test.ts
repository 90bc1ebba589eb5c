import { describe, expect, it } from "vitest";
import { RICH_TEXT_CHARS, toRichText } from "./rich-text.js";

describe("toRichText", () => {
  it("keeps short text as one object", () => {
    expect(toRichText("Hello")).toEqual([{ type: "text", text: { content: "Hello" } }]);
  });

  it("splits text past Notion's 2,000 characters into objects within it, losing nothing", () => {
    const text = "a".repeat(4500);
    const items = toRichText(text);
    expect(items.map((item) => item.text.content.length)).toEqual([2000, 2000, 500]);
    expect(items.map((item) => item.text.content).join("")).toBe(text);
  });

  it("never splits a surrogate pair across two objects", () => {
    const text = `${"a".repeat(RICH_TEXT_CHARS - 1)}😀b`;
    const items = toRichText(text);
    expect(items[0]?.text.content.length).toBe(RICH_TEXT_CHARS - 1);
    expect(items[1]?.text.content).toBe("😀b");
  });
});
