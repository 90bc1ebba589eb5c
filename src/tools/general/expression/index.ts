/** @module Safe arithmetic for the `calculate` tool: text in, exact decimal out, no code execution. */
import { toResult } from "./decimal.js";
import { evaluate } from "./evaluate.js";
import { assertKnownName } from "./functions.js";
import { parse } from "./parse.js";
import { tokenize } from "./tokenize.js";

export { ExpressionError } from "./expression-error.js";
export { EXPRESSION_NAMES } from "./functions.js";
export { EXPRESSION_LIMITS } from "./limits.js";

/** The exact decimal string ("0.3", "98", "1.2e+50") and the nearest JS number, always finite. */
export interface ExpressionResult {
  readonly value: string;
  readonly number: number;
}

/**
 * Evaluates arithmetic such as `2*(3+4)^2` or `round(sqrt(2), 3)`; throws ExpressionError for anything it
 * refuses, with a message meant for the caller. `log(x)` is base 10, `log(x, b)` base b, `ln(x)` natural.
 */
export function evaluateExpression(text: string): ExpressionResult {
  const tokens = tokenize(text);
  // Names before syntax: for `process.exit(1)`, "unknown name 'process'" says more than "unexpected '.'".
  for (const token of tokens) {
    if (token.type === "name") assertKnownName(token.text, token.position);
  }
  return toResult(evaluate(parse(tokens)));
}
