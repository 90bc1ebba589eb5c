/** @module The Decimal context every value lives in: fixed precision, bounded magnitude, JS-like output. */
import decimal, { type Decimal } from "decimal.js";
import { ExpressionError } from "./expression-error.js";
import { EXPRESSION_LIMITS } from "./limits.js";

const { precision, resultDigits, maxExponent } = EXPRESSION_LIMITS;

// decimal.js's types describe its CommonJS build, whose export carries `.Decimal`; under Node's ESM the
// default export is the class itself and has no such property.
const DecimalClass = ((decimal as { Decimal?: unknown }).Decimal ?? decimal) as typeof decimal.Decimal;

const SETTINGS: Decimal.Config = {
  precision,
  rounding: DecimalClass.ROUND_HALF_UP,
  // Truncating `%`, like JavaScript: the result takes the sign of the dividend.
  modulo: DecimalClass.ROUND_DOWN,
  // Plain notation from 1e-7 up to every integer a result shows exactly.
  toExpNeg: -7,
  toExpPos: resultDigits,
};

/** A private Decimal constructor, so the global one, which other code may configure, is left alone. */
export const ExactDecimal = DecimalClass.clone(SETTINGS);

/** ln(10^(maxExponent + 1)): past this, `exp` and `^` are refused before decimal.js builds the result. */
export const LN_LIMIT = new ExactDecimal(10).ln().times(maxExponent + 1);

/** Returns `value` if it is real and within range; otherwise throws, naming it as `what`. */
export function checked(value: Decimal, what: string, position?: number): Decimal {
  if (value.isNaN()) throw new ExpressionError(`${what} is not a real number`, position);
  if (!value.isFinite() || value.e >= maxExponent) throw tooLarge(what, position);
  if (!value.isZero() && value.e < -maxExponent) throw tooSmall(what, position);
  return value;
}

/** The error for a value past 1e308, or one that would be. */
export function tooLarge(what: string, position?: number): ExpressionError {
  return new ExpressionError(`${what} is too large, the limit is 1e${maxExponent}`, position);
}

/** The error for a nonzero value below 1e-308, or one that would be. */
export function tooSmall(what: string, position?: number): ExpressionError {
  return new ExpressionError(`${what} is too close to zero, the limit is 1e-${maxExponent}`, position);
}

/**
 * Puts decimal.js back in order after it threw: some of its functions throw with a temporarily raised
 * precision and with its module-wide "external" flag cleared, which would leave later results unrounded.
 */
export function restoreDecimal(): void {
  ExactDecimal.set(SETTINGS);
  // sqrt ends by setting that flag back, on every path past the special cases.
  new ExactDecimal(2).sqrt();
}

/** The decimal string, rounded to the result digits (negative zero shown as "0"), and the nearest JS number. */
export function toResult(value: Decimal): { value: string; number: number } {
  if (value.isZero()) return { value: "0", number: 0 };
  const rounded = value.toSignificantDigits(resultDigits);
  return { value: rounded.toString(), number: rounded.toNumber() };
}
