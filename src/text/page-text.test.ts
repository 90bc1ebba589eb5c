/** @module Pages of a text: whole emoji at both ends, the next offset until the end. */
import { describe, expect, it } from "vitest";
import { pageText } from "./page-text.js";

describe("pageText", () => {
  it("pages by units without parting an emoji, and says where to read on", () => {
    const text = "ab😀cd";
    expect(pageText(text, 0, 3)).toEqual({ text: "ab", start: 0, end: 2, total: 6, nextOffset: 2 });
    expect(pageText(text, 3, 2)).toEqual({ text: "😀", start: 2, end: 4, total: 6, nextOffset: 4 });
    expect(pageText(text, 2, 1)).toEqual({ text: "😀", start: 2, end: 4, total: 6, nextOffset: 4 });
    expect(pageText(text, 4, 10)).toEqual({ text: "cd", start: 4, end: 6, total: 6, nextOffset: null });
    expect(pageText(text, 6, 10)).toEqual({ text: "", start: 6, end: 6, total: 6, nextOffset: null });
  });
});
