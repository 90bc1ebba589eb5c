/** @module The names an expression may use: constants and functions, with their arity and domain checks. */
import type { Decimal } from "decimal.js";
import { checked, ExactDecimal, LN_LIMIT, tooLarge, tooSmall } from "./decimal.js";
import { ExpressionError } from "./expression-error.js";
import { EXPRESSION_LIMITS } from "./limits.js";

interface FunctionEntry {
  readonly signature: string;
  readonly minArgs: number;
  readonly maxArgs: number;
  readonly apply: (args: readonly Decimal[], position: number) => Decimal;
}

const CONSTANTS: ReadonlyMap<string, Decimal> = new Map([
  ["pi", ExactDecimal.acos(-1)],
  ["e", ExactDecimal.exp(1)],
]);

/** `base ^ exponent`, refused before computing when the result would be out of range. */
export function power(base: Decimal, exponent: Decimal, position: number): Decimal {
  if (base.isZero()) {
    if (exponent.lt(0)) throw new ExpressionError("division by zero: 0 raised to a negative power", position);
    return new ExactDecimal(exponent.isZero() ? 1 : 0);
  }
  if (base.lt(0) && !exponent.isInteger()) {
    throw new ExpressionError(
      `${base} raised to the non-integer power ${exponent} is not a real number`,
      position,
    );
  }
  // ln|result| = exponent * ln|base|; decimal.js itself would happily build 9^387420489.
  limitLog(exponent.times(base.abs().ln()), "the power", position);
  return checked(base.pow(exponent), "the power", position);
}

function limitLog(logarithm: Decimal, what: string, position: number): void {
  if (logarithm.gt(LN_LIMIT)) throw tooLarge(what, position);
  if (logarithm.lt(LN_LIMIT.neg())) throw tooSmall(what, position);
}

function unary(name: string, apply: (x: Decimal, position: number) => Decimal): [string, FunctionEntry] {
  return [name, { signature: `${name}(x)`, minArgs: 1, maxArgs: 1, apply: (args, p) => apply(args[0]!, p) }];
}

function binary(
  name: string,
  signature: string,
  minArgs: 1 | 2,
  apply: (x: Decimal, y: Decimal | undefined, position: number) => Decimal,
): [string, FunctionEntry] {
  return [name, { signature, minArgs, maxArgs: 2, apply: (args, p) => apply(args[0]!, args[1], p) }];
}

function variadic(name: string, apply: (args: readonly Decimal[]) => Decimal): [string, FunctionEntry] {
  return [name, { signature: `${name}(x, ...)`, minArgs: 1, maxArgs: Number.POSITIVE_INFINITY, apply }];
}

function domain(name: string, ok: boolean, requirement: string, x: Decimal, position: number): void {
  if (!ok) throw new ExpressionError(`${name} needs ${requirement}, got ${x}`, position);
}

function positive(name: string, x: Decimal, position: number): void {
  domain(name, x.gt(0), "a positive argument", x, position);
}

function round(x: Decimal, digits: Decimal | undefined, position: number): Decimal {
  const places = digits ?? new ExactDecimal(0);
  const limit = EXPRESSION_LIMITS.maxExponent;
  const ok = places.isInteger() && places.abs().lte(limit);
  domain("round", ok, `digits to be an integer from -${limit} to ${limit}`, places, position);
  if (places.gte(0)) return x.toDecimalPlaces(places.toNumber(), ExactDecimal.ROUND_HALF_UP);
  // Negative digits round to tens, hundreds, ...: scale down, round, scale back, all exact in decimal.
  const scale = new ExactDecimal(10).pow(places.neg());
  return x.div(scale).round().times(scale);
}

function log(x: Decimal, base: Decimal | undefined, position: number): Decimal {
  positive("log", x, position);
  if (base === undefined) return x.log(10);
  domain("log", base.gt(0) && !base.eq(1), "a base that is positive and not 1", base, position);
  return x.log(base);
}

const FUNCTIONS: ReadonlyMap<string, FunctionEntry> = new Map([
  unary("sqrt", (x, p) => {
    domain("sqrt", x.gte(0), "a non-negative argument", x, p);
    return x.sqrt();
  }),
  unary("abs", (x) => x.abs()),
  binary("round", "round(x, digits?)", 1, round),
  unary("floor", (x) => x.floor()),
  unary("ceil", (x) => x.ceil()),
  variadic("min", (args) => ExactDecimal.min(...args)),
  variadic("max", (args) => ExactDecimal.max(...args)),
  unary("ln", (x, p) => {
    positive("ln", x, p);
    return x.ln();
  }),
  unary("log10", (x, p) => {
    positive("log10", x, p);
    return x.log(10);
  }),
  // log(x) is base 10, as on calculators and spreadsheets; ln(x) is the natural logarithm.
  binary("log", "log(x, base?)", 1, log),
  unary("exp", (x, p) => {
    limitLog(x, "the result of exp", p);
    return x.exp();
  }),
  unary("sin", (x) => x.sin()),
  unary("cos", (x) => x.cos()),
  unary("tan", (x) => x.tan()),
  unary("asin", (x, p) => {
    domain("asin", x.abs().lte(1), "an argument from -1 to 1", x, p);
    return x.asin();
  }),
  unary("acos", (x, p) => {
    domain("acos", x.abs().lte(1), "an argument from -1 to 1", x, p);
    return x.acos();
  }),
  unary("atan", (x) => x.atan()),
  binary("pow", "pow(x, y)", 2, (x, y, p) => power(x, y!, p)),
]);

/** Every name an expression may use, constants first, functions with their signatures. */
export const EXPRESSION_NAMES: readonly string[] = [
  ...CONSTANTS.keys(),
  ...[...FUNCTIONS.values()].map((entry) => entry.signature),
];

/** Throws the unknown-name error, which lists the available names, unless `name` is one of them. */
export function assertKnownName(name: string, position: number): void {
  if (!CONSTANTS.has(name) && !FUNCTIONS.has(name)) throw unknownName(name, position);
}

function unknownName(name: string, position: number): ExpressionError {
  return new ExpressionError(`unknown name '${name}'`, position, `available: ${EXPRESSION_NAMES.join(", ")}`);
}

/** The value of constant `name`. */
export function constant(name: string, position: number): Decimal {
  const value = CONSTANTS.get(name);
  if (value !== undefined) return value;
  const entry = FUNCTIONS.get(name);
  if (entry === undefined) throw unknownName(name, position);
  throw new ExpressionError(`'${name}' is a function`, position, `call it as ${entry.signature}`);
}

/** Calls function `name` after checking its arity; the result is range-checked. */
export function call(name: string, args: readonly Decimal[], position: number): Decimal {
  const entry = FUNCTIONS.get(name);
  if (entry === undefined) {
    if (CONSTANTS.has(name)) throw new ExpressionError(`'${name}' is a constant, not a function`, position);
    throw unknownName(name, position);
  }
  if (args.length < entry.minArgs || args.length > entry.maxArgs) {
    throw new ExpressionError(`${entry.signature} takes ${arity(entry)}, got ${args.length}`, position);
  }
  return checked(entry.apply(args, position), `the result of ${name}`, position);
}

function arity({ minArgs, maxArgs }: FunctionEntry): string {
  const plural = (count: number) => `${count} argument${count === 1 ? "" : "s"}`;
  if (maxArgs === Number.POSITIVE_INFINITY) return `at least ${plural(minArgs)}`;
  return minArgs === maxArgs ? plural(minArgs) : `${minArgs} or ${plural(maxArgs)}`;
}
