/** @module The bounds that keep a hostile expression cheap: input size, nesting, precision and magnitude. */

export const EXPRESSION_LIMITS = {
  /** Characters, checked before scanning, so a megabyte of input costs nothing. */
  maxLength: 1000,
  maxTokens: 500,
  /** Parser recursion: each parenthesis, call, unary sign and `^` operand nests one level. */
  maxDepth: 64,
  /** Significant digits of every value while computing, literals included. */
  precision: 40,
  /** Significant digits of the result: the spare six absorb rounding, so sqrt(2)^2 is 2. */
  resultDigits: 34,
  /** Every nonzero value must satisfy 1e-308 <= |x| < 1e308, so it also fits a JS number. */
  maxExponent: 308,
} as const;
