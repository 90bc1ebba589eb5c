import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { canonicalJson, replacerCanonicalJson, sha256 } from "./tool-hash.js";

/** The text, or the kind of error, either way of writing gives. */
function outcome(write: (value: unknown) => string, value: unknown): string {
  try {
    return `text:${write(value)}`;
  } catch (error) {
    return `threw:${(error as Error).constructor.name}`;
  }
}

describe("canonicalJson", () => {
  it("sorts keys at every depth and omits what JSON omits", () => {
    expect(canonicalJson({ b: 1, a: [{ d: undefined, c: Number.NaN }, undefined], "": null })).toBe(
      '{"":null,"a":[{"c":null},null],"b":1}',
    );
    // Integer keys come first, in numeric order, as any object lists them: the text hashes were taken of.
    expect(canonicalJson({ b: 1, 10: 1, 9: 1, a: 1, "01": 1, 4294967295: 1 })).toBe(
      '{"9":1,"10":1,"01":1,"4294967295":1,"a":1,"b":1}',
    );
    expect(canonicalJson(JSON.parse('{"__proto__":{"x":1},"a":"\\u2028"}'))).toBe(
      '{"__proto__":{"x":1},"a":"\u2028"}',
    );
  });

  it("writes exactly what the general path writes, for JSON data and for anything else", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.anything({ withDate: true, withBoxedValues: true }),
          fc.dictionary(fc.oneof(fc.nat().map(String), fc.string()), fc.jsonValue({ maxDepth: 2 })),
        ),
        (value) => {
          expect(outcome(canonicalJson, value)).toBe(outcome(replacerCanonicalJson, value));
        },
      ),
      { numRuns: 2_000 },
    );
  });

  it("honours toJSON and nesting deeper than the plain path goes", () => {
    const withToJson = { b: 1, toJSON: () => ({ z: 1, y: 2 }) };
    expect(canonicalJson({ a: withToJson, when: new Date(0) })).toBe(
      '{"a":{"y":2,"z":1},"when":"1970-01-01T00:00:00.000Z"}',
    );
    let deep: unknown = { b: 2, a: 1 };
    for (let i = 0; i < 200; i++) deep = [deep];
    expect(canonicalJson(deep)).toBe(`${"[".repeat(200)}{"a":1,"b":2}${"]".repeat(200)}`);
  });
});

describe("sha256", () => {
  it("is the hex digest", () => {
    expect(sha256("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  });
});
