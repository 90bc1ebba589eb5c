import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { lineAndColumn, scanJson } from "./json-scan.js";

describe("scanJson", () => {
  it("accepts what JSON.parse accepts", () => {
    for (const text of ['{"a":[1,-2.5e3,true,false,null,"x\\u00e9\\n"]}', " [ ] ", "0", '""', '{"":{}}']) {
      expect(scanJson(text, 64)).toEqual({ ok: true });
    }
  });

  it("names the line, column and problem of a syntax error", () => {
    expect(scanJson('{\n  "a": [1, 2,, 3]\n}', 64)).toMatchObject({
      ok: false,
      reason: "syntax",
      line: 2,
      column: 14,
      message: "unexpected ','",
    });
    expect(scanJson('{"a" 1}', 64)).toMatchObject({
      ok: false,
      message: expect.stringContaining("expected ':'"),
    });
    expect(scanJson("[1 2]", 64)).toMatchObject({ ok: false, message: "expected ',' or ']', found '2'" });
    expect(scanJson('{"a":1,}', 64)).toMatchObject({
      ok: false,
      message: expect.stringContaining("property name"),
    });
    expect(scanJson('"abc', 64)).toMatchObject({ ok: false, message: "unterminated string", position: 0 });
    expect(scanJson('"a\\x"', 64)).toMatchObject({ ok: false, message: "invalid escape in a string" });
    expect(scanJson('"\t"', 64)).toMatchObject({ ok: false, message: expect.stringContaining("control") });
    expect(scanJson("[1] x", 64)).toMatchObject({
      ok: false,
      message: expect.stringContaining("after the JSON"),
    });
    expect(scanJson("", 64)).toMatchObject({ ok: false, message: "unexpected end of input" });
    expect(scanJson("01", 64)).toMatchObject({ ok: false });
    expect(scanJson("-", 64)).toMatchObject({ ok: false, message: "invalid number" });
  });

  it("refuses nesting past the limit without recursing, however deep", () => {
    const deep = `${"[".repeat(500_000)}${"]".repeat(500_000)}`;
    expect(scanJson(deep, 64)).toMatchObject({ ok: false, reason: "depth", position: 64, column: 65 });
    expect(scanJson(`${"[".repeat(64)}${"]".repeat(64)}`, 64)).toEqual({ ok: true });
    expect(scanJson(`{"a":${'{"a":'.repeat(64)}1${"}".repeat(65)}`, 64)).toMatchObject({ reason: "depth" });
  });

  it("agrees with JSON.parse on generated documents and on arbitrary text", () => {
    fc.assert(
      fc.property(fc.json({ depthSize: "medium" }), (text) => {
        expect(scanJson(text, 1_000)).toEqual({ ok: true });
      }),
    );
    const jsonish = fc.string({ unit: fc.constantFrom(...'{}[]:,"\\ 01-.eE+tfnaulrsu\n\t'.split("")) });
    fc.assert(
      fc.property(fc.oneof(jsonish, fc.string()), (text) => {
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(scanJson(text, 1_000).ok).toBe(parses);
      }),
      { numRuns: 2_000 },
    );
  });

  it("counts lines from 1", () => {
    expect(lineAndColumn("ab\ncd\nef", 7)).toEqual({ line: 3, column: 2 });
    expect(lineAndColumn("ab", 0)).toEqual({ line: 1, column: 1 });
  });
});
