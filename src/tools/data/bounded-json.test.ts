import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { cutToBytes, stringifyBounded } from "./bounded-json.js";

describe("stringifyBounded", () => {
  it("matches JSON.stringify when the text fits", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(stringifyBounded(value, Buffer.byteLength(text))).toEqual({ text, complete: true });
      }),
    );
    expect(stringifyBounded({ a: undefined, b: [undefined, Number.NaN], c: "é" }, 100).text).toBe(
      JSON.stringify({ a: undefined, b: [undefined, Number.NaN], c: "é" }),
    );
  });

  it("stops at the cap on a value whose text is exponentially larger than its memory", () => {
    let value: unknown = [1];
    for (let i = 0; i < 200; i++) value = [value, value];
    const bounded = stringifyBounded(value, 1_000);
    expect(bounded.complete).toBe(false);
    expect(Buffer.byteLength(bounded.text)).toBeLessThanOrEqual(1_000);
    expect(bounded.text.startsWith("[[[[")).toBe(true);
  });

  it("handles nesting deeper than the call stack", () => {
    let value: unknown = 0;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(stringifyBounded(value, 1_000_000)).toMatchObject({ complete: true });
  });

  it("never cuts a character in half", () => {
    expect(cutToBytes("ééé", 3)).toBe("é");
    expect(stringifyBounded("ééééé", 4)).toEqual({ text: '"é', complete: false });
  });
});
