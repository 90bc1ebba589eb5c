import { describe, expect, it } from "vitest";
import { sliceWhole, splitsPair, withoutHalfPair } from "./surrogates.js";

describe("surrogate pairs", () => {
  const text = "a😀b";

  it("knows a cut between the halves of a pair from one beside it", () => {
    expect([0, 1, 2, 3, 4].map((index) => splitsPair(text, index))).toEqual([
      false,
      false,
      true,
      false,
      false,
    ]);
  });

  it("cuts before a pair rather than through it", () => {
    expect(sliceWhole(text, 2)).toBe("a");
    expect(sliceWhole(text, 3)).toBe("a😀");
    expect(sliceWhole(text, 10)).toBe(text);
  });

  it("drops a high half left at the end, and nothing else", () => {
    expect(withoutHalfPair(text.slice(0, 2))).toBe("a");
    expect(withoutHalfPair(text)).toBe(text);
    expect(withoutHalfPair("")).toBe("");
  });
});
