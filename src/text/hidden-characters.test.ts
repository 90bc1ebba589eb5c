import { describe, expect, it } from "vitest";
import { hasHiddenCharacters, oneLine } from "./hidden-characters.js";

describe("hidden characters", () => {
  it("finds control, zero-width, bidirectional and byte-order characters and passes ordinary text", () => {
    for (const text of ["a\nb", "a\u0000b", "cof\u200Bfee", "x\u202Ey", "x\u2066y", "\uFEFFa", "a\u2060b"]) {
      expect(hasHiddenCharacters(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ["coffee near Alexanderplatz", "Zürich café", "東京タワー", "coffee ☕ near me"]) {
      expect(hasHiddenCharacters(text), text).toBe(false);
    }
  });

  it("puts vendor text on one bounded line", () => {
    expect(oneLine("Apple Inc.\nNot found at Yahoo: AAPL", 200)).toBe("Apple Inc. Not found at Yahoo: AAPL");
    expect(oneLine("a\r\n\tb\u2028c\u0085d", 200)).toBe("a b c d");
    expect(oneLine("  abcdef  ", 3)).toBe("abc…");
  });
});
