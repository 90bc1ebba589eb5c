import { describe, expect, it } from "vitest";
import { parseBearer } from "./parse-bearer.js";

describe("parseBearer", () => {
  it("reads the token whatever the scheme's case, trimming whitespace", () => {
    expect(parseBearer("Bearer abc")).toBe("abc");
    expect(parseBearer("bearer abc")).toBe("abc");
    expect(parseBearer("BEARER abc")).toBe("abc");
    expect(parseBearer("  Bearer \t abc  ")).toBe("abc");
  });

  it("refuses a missing, empty or other-scheme header", () => {
    for (const header of [undefined, "", "Bearer", "Bearer ", "Bearer    ", "Basic abc", "Bearerabc", "abc"])
      expect(parseBearer(header), String(header)).toBeUndefined();
  });

  it("refuses a token with inner whitespace", () => {
    expect(parseBearer("Bearer abc def")).toBeUndefined();
  });

  it("refuses a header over 512 characters", () => {
    const fits = `Bearer ${"a".repeat(512 - 7)}`;
    expect(parseBearer(fits)).toBe("a".repeat(505));
    expect(parseBearer(`${fits}a`)).toBeUndefined();
  });
});
