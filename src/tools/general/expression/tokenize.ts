/** @module Splits expression text into tokens, refusing oversized input and unknown characters. */
import { ExpressionError } from "./expression-error.js";
import { EXPRESSION_LIMITS } from "./limits.js";

export type TokenType = "number" | "name" | "operator" | "(" | ")" | "," | ".";

export interface Token {
  readonly type: TokenType;
  /** The source text; `**` stays `**` so messages quote what the caller wrote. */
  readonly text: string;
  /** 1-based index of the first character. */
  readonly position: number;
}

// Sticky patterns match only at `lastIndex`, so scanning never searches ahead.
const NUMBER = /(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?/y;
const NAME = /[A-Za-z_][A-Za-z0-9_]*/y;
const WHITESPACE = /\s/;
const OPERATORS = ["**", "+", "-", "*", "/", "%", "^"] as const;
const PUNCTUATION: ReadonlySet<string> = new Set(["(", ")", ",", "."]);
// Characters models often produce when they mean an ASCII operator.
const LOOKALIKES: ReadonlyMap<string, string> = new Map([
  ["×", "*"],
  ["·", "*"],
  ["÷", "/"],
  ["−", "-"],
]);

/** Tokenizes `text`; throws ExpressionError for input over the length or token limits or an unknown character. */
export function tokenize(text: string): Token[] {
  const { maxLength, maxTokens } = EXPRESSION_LIMITS;
  if (text.length > maxLength) {
    throw new ExpressionError(`expression is too long: ${text.length} characters, the limit is ${maxLength}`);
  }
  const tokens: Token[] = [];
  let index = 0;
  while (index < text.length) {
    const char = text[index] ?? "";
    if (WHITESPACE.test(char)) {
      index++;
      continue;
    }
    if (tokens.length === maxTokens) {
      throw new ExpressionError(`expression has too many tokens, the limit is ${maxTokens}`, index + 1);
    }
    const token = readToken(text, index);
    tokens.push(token);
    index += token.text.length;
  }
  return tokens;
}

function readToken(text: string, index: number): Token {
  const position = index + 1;
  const number = matchAt(NUMBER, text, index);
  if (number !== undefined) return { type: "number", text: number, position };
  const name = matchAt(NAME, text, index);
  if (name !== undefined) return { type: "name", text: name, position };
  const operator = OPERATORS.find((candidate) => text.startsWith(candidate, index));
  if (operator !== undefined) return { type: "operator", text: operator, position };
  const char = String.fromCodePoint(text.codePointAt(index) ?? 0);
  if (PUNCTUATION.has(char)) return { type: char as TokenType, text: char, position };
  const lookalike = LOOKALIKES.get(char);
  throw new ExpressionError(
    `unexpected character ${JSON.stringify(char)}`,
    position,
    lookalike === undefined ? undefined : `write ${lookalike} instead`,
  );
}

function matchAt(pattern: RegExp, text: string, index: number): string | undefined {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[0];
}
