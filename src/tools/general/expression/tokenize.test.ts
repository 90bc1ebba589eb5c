import { describe, expect, it } from "vitest";
import { ExpressionError } from "./expression-error.js";
import { tokenize } from "./tokenize.js";

const texts = (text: string) => tokenize(text).map((token) => token.text);

function refusal(text: string): ExpressionError {
  try {
    tokenize(text);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

describe("tokenize", () => {
  it("reads integers, decimals and scientific notation as single number tokens", () => {
    const tokens = tokenize("1 .5 1.25 1e3 2.5E-3 7e+2 3.");
    expect(tokens.map((token) => token.type)).toEqual(Array(7).fill("number"));
    expect(tokens.map((token) => token.text)).toEqual(["1", ".5", "1.25", "1e3", "2.5E-3", "7e+2", "3."]);
  });

  it("records 1-based positions and skips whitespace", () => {
    expect(tokenize(" 12 +\tpi").map(({ type, position }) => [type, position])).toEqual([
      ["number", 2],
      ["operator", 5],
      ["name", 7],
    ]);
  });

  it("reads names, operators, parentheses, commas and dots", () => {
    const expected = "max ( a_1 , 2 ) ** 3 % 4 ^ 5 / 6 - 7".split(" ");
    expect(texts("max(a_1, 2)**3 % 4 ^ 5 / 6 - 7")).toEqual(expected);
    expect(tokenize("process.exit").map((token) => token.type)).toEqual(["name", ".", "name"]);
  });

  it("leaves an exponent without digits to the name that follows", () => {
    expect(texts("2e")).toEqual(["2", "e"]);
  });

  it.each([
    ["1 + $", '"$"', 5],
    ["2 = 2", '"="', 3],
    ["a.b;", '";"', 4],
    ["1 + 😀", '"😀"', 5],
    ["\u0000", '"\\u0000"', 1],
    ["\ud800", '"\\ud800"', 1],
  ])("refuses the unknown character in %j, naming it and its position", (text, shown, position) => {
    const error = refusal(text);
    expect(error.message).toContain(`unexpected character ${shown} at position ${position}`);
    expect(error.position).toBe(position);
  });

  it("suggests the ASCII operator for a lookalike", () => {
    expect(refusal("2 × 3").message).toContain("write * instead");
    expect(refusal("6 ÷ 3").message).toContain("write / instead");
  });

  it("refuses input over the length limit before scanning it", () => {
    expect(tokenize("1".repeat(1000))).toHaveLength(1);
    expect(refusal("1".repeat(1001)).message).toBe(
      "expression is too long: 1001 characters, the limit is 1000",
    );
    const started = performance.now();
    expect(refusal("(".repeat(1_000_000)).message).toContain("too long");
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("refuses more tokens than the limit", () => {
    expect(tokenize(`${"1+".repeat(249)}1`)).toHaveLength(499);
    expect(refusal(`${"1+".repeat(250)}1`).message).toContain("too many tokens, the limit is 500");
  });
});
