import { describe, expect, it } from "vitest";
import { ExpressionError } from "./expression-error.js";
import { type ExpressionNode, parse } from "./parse.js";
import { type Token, tokenize } from "./tokenize.js";

/** Fully parenthesised form, so a test shows the grouping the parser chose. */
function show(node: ExpressionNode): string {
  switch (node.type) {
    case "number":
      return node.text;
    case "name":
      return node.name;
    case "unary":
      return `(${node.operator}${show(node.operand)})`;
    case "binary":
      return `(${show(node.left)} ${node.operator} ${show(node.right)})`;
    case "call":
      return `${node.name}(${node.args.map(show).join(", ")})`;
  }
}

function refusal(tokens: readonly Token[]): ExpressionError {
  try {
    parse(tokens);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error("expected the tokens to be refused");
}

const tokens = (type: Token["type"], text: string, count: number): Token[] =>
  Array.from({ length: count }, (_, index) => ({ type, text, position: index + 1 }));

describe("parse", () => {
  it.each([
    ["1+2*3", "(1 + (2 * 3))"],
    ["(1+2)*3", "((1 + 2) * 3)"],
    ["1-2-3", "((1 - 2) - 3)"],
    ["8/4/2", "((8 / 4) / 2)"],
    ["7%3*2", "((7 % 3) * 2)"],
    ["2^3^2", "(2 ^ (3 ^ 2))"],
    ["2**3**2", "(2 ^ (3 ^ 2))"],
    ["2^3*4", "((2 ^ 3) * 4)"],
    ["-2^2", "(-(2 ^ 2))"],
    ["-2*3", "((-2) * 3)"],
    ["2*-3", "(2 * (-3))"],
    ["2^-1", "(2 ^ (-1))"],
    ["--1", "(-(-1))"],
    ["+pi", "(+pi)"],
    ["1 - -2", "(1 - (-2))"],
    ["max(1, 2+3, -x)", "max(1, (2 + 3), (-x))"],
    ["f()", "f()"],
    ["f(g(1))^2", "(f(g(1)) ^ 2)"],
  ])("parses %s as %s", (text, expected) => {
    expect(show(parse(tokenize(text)))).toBe(expected);
  });

  it.each([
    ["", "expression is empty"],
    ["1 +", "expression ends after '+' at position 3"],
    ["(1", "missing ')' to close '(' at position 1"],
    ["max(1, 2", "missing ')' to close the call to 'max' at position 1"],
    ["(1, 2)", "expected ')' to close '(' at position 1, found ',' at position 3"],
    ["1)", "unexpected ')' at position 2"],
    ["max(1,)", "unexpected ')' at position 7"],
    ["* 2", "unexpected '*' at position 1"],
    ["1, 2", "unexpected ',' at position 2"],
    ["2 pi", "missing operator before 'pi' at position 3"],
    ["2(3)", "missing operator before '(' at position 2"],
    ["pi.x", "unexpected '.' at position 3; member access and method calls are not supported"],
  ])("refuses %j: %s", (text, fragment) => {
    expect(refusal(tokenize(text)).message).toContain(fragment);
  });

  it("allows nesting up to the depth limit and refuses deeper", () => {
    const nested = (depth: number) => `${"(".repeat(depth)}1${")".repeat(depth)}`;
    expect(show(parse(tokenize(nested(60))))).toBe("1");
    expect(refusal(tokenize(nested(65))).message).toContain("nested too deeply, the limit is 64 levels");
    expect(refusal(tokenize(`${"-".repeat(100)}1`)).message).toContain("nested too deeply");
    expect(refusal(tokenize(`${"2^".repeat(100)}2`)).message).toContain("nested too deeply");
    expect(refusal(tokenize(`${"sqrt(".repeat(100)}1${")".repeat(100)}`)).message).toContain(
      "nested too deeply",
    );
  });

  it("never recurses without bound, even on token streams past the tokenizer's limits", () => {
    expect(refusal(tokens("(", "(", 100_000)).message).toContain("nested too deeply");
    expect(refusal(tokens("operator", "-", 100_000)).message).toContain("nested too deeply");
    const powers = tokens("number", "2", 100_001).flatMap((token, index) =>
      index === 0 ? [token] : [{ type: "operator" as const, text: "^", position: index }, token],
    );
    expect(refusal(powers).message).toContain("nested too deeply");
  });

  it("keeps long left-associative chains flat in the parser", () => {
    expect(show(parse(tokenize(`${"1+".repeat(200)}1`))).startsWith("((((")).toBe(true);
  });
});
