import { describe, expect, it } from "vitest";
import { lineWindow, textOfBytes, textOfRaw } from "./file-text.js";

describe("textOfBytes", () => {
  it("decodes UTF-8 text and calls a NUL or an invalid sequence binary", () => {
    expect(textOfBytes(Buffer.from("héllo\n"))).toEqual({ binary: false, text: "héllo\n" });
    expect(textOfBytes(Buffer.from([0x47, 0x49, 0x46, 0x00, 0x01]))).toEqual({ binary: true });
    expect(textOfBytes(Buffer.from([0x68, 0xff, 0xfe, 0x69]))).toEqual({ binary: true });
  });
});

describe("textOfRaw", () => {
  it("reads bytes as bytes, and text Octokit already decoded by its NULs and replacement characters", () => {
    expect(textOfRaw(new TextEncoder().encode("abc").buffer)).toEqual({ binary: false, text: "abc" });
    expect(textOfRaw(Buffer.from([0x00, 0x61]))).toEqual({ binary: true });
    expect(textOfRaw("plain text")).toEqual({ binary: false, text: "plain text" });
    expect(textOfRaw("PNG\uFFFD\uFFFD")).toEqual({ binary: true });
    expect(textOfRaw("a\u0000b")).toEqual({ binary: true });
  });
});

describe("lineWindow", () => {
  const text = "one\ntwo\nthree\nfour\n";

  it("returns whole lines that fit and where the next window starts", () => {
    expect(lineWindow(text, 1, 9)).toEqual({
      content: "one\ntwo\n",
      startLine: 1,
      endLine: 2,
      totalLines: 4,
      truncated: true,
      nextStartLine: 3,
    });
    expect(lineWindow(text, 3, 100)).toEqual({
      content: "three\nfour\n",
      startLine: 3,
      endLine: 4,
      totalLines: 4,
      truncated: false,
      nextStartLine: null,
    });
  });

  it("cuts a line longer than the window on a character boundary and moves on to the next line", () => {
    const window = lineWindow("ééééé\nnext\n", 1, 5);
    expect(window).toEqual({
      content: "éé",
      startLine: 1,
      endLine: 1,
      totalLines: 2,
      truncated: true,
      nextStartLine: 2,
    });
    expect(lineWindow("only one very long line", 1, 4)).toMatchObject({
      content: "only",
      nextStartLine: null,
    });
  });
});
