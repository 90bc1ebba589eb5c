import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { evaluate } from "./evaluate.js";
import { EXPRESSION_LIMITS, EXPRESSION_NAMES, ExpressionError, evaluateExpression } from "./index.js";

const value = (text: string) => evaluateExpression(text).value;

function refusal(text: string): ExpressionError {
  try {
    evaluateExpression(text);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`expected ${JSON.stringify(text)} to be refused`);
}

function timed<T>(run: () => T): { result: T; milliseconds: number } {
  const started = performance.now();
  const result = run();
  return { result, milliseconds: performance.now() - started };
}

describe("evaluateExpression", () => {
  it("evaluates 2*(3+4)^2 to 98", () => {
    expect(evaluateExpression("2*(3+4)^2")).toEqual({ value: "98", number: 98 });
  });

  it.each([
    ["1+2*3", "7"],
    ["(1+2)*3", "9"],
    ["10-4-3", "3"],
    ["100/10/5", "2"],
    ["7%4*2", "6"],
    ["2+3%2", "3"],
    ["2^3^2", "512"],
    ["2**3**2", "512"],
    ["(2^3)^2", "64"],
    ["-2^2", "-4"],
    ["(-2)^2", "4"],
    ["-2*3", "-6"],
    ["2*-3", "-6"],
    ["2^-2", "0.25"],
    ["--3", "3"],
    ["+-+3", "-3"],
    ["1 - -2", "3"],
    ["-7 % 3", "-1"],
    ["7 % -3", "1"],
    ["2^3*4", "32"],
    ["4*2^3", "32"],
  ])("respects precedence and associativity: %s = %s", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it.each([
    ["0.1 + 0.2", "0.3"],
    ["0.1 * 3", "0.3"],
    ["0.3 - 0.1", "0.2"],
    ["1.1 * 1.1", "1.21"],
    ["1.50 * 2", "3"],
    [".5 + .25", "0.75"],
    ["1e3 + 2.5E-3", "1000.0025"],
    ["1/4", "0.25"],
    ["1/3", "0.3333333333333333333333333333333333"],
    ["(1/3)*3", "1"],
    ["2^64", "18446744073709551616"],
    ["2^100", "1267650600228229401496703205376"],
    ["3^100", "5.153775207320113310364611297656213e+47"],
    ["1e-7", "1e-7"],
    ["0.000001", "0.000001"],
    ["-0", "0"],
    ["0 * -1", "0"],
  ])("computes exact decimals: %s = %s", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it("returns the nearest JS number beside the decimal string", () => {
    expect(evaluateExpression("0.1 + 0.2").number).toBe(0.3);
    expect(evaluateExpression("1/3").number).toBe(1 / 3);
    expect(Object.is(evaluateExpression("-0").number, 0)).toBe(true);
  });

  it.each([
    ["pi", "3.141592653589793238462643383279503"],
    ["e", "2.718281828459045235360287471352662"],
    ["sqrt(16)", "4"],
    ["sqrt(2)^2", "2"],
    ["abs(-2.5)", "2.5"],
    ["round(2.5)", "3"],
    ["round(-2.5)", "-3"],
    ["round(2.345, 2)", "2.35"],
    ["round(1234.5, -2)", "1200"],
    ["floor(-2.5)", "-3"],
    ["ceil(-2.5)", "-2"],
    ["min(3, -1, 2)", "-1"],
    ["max(3, -1, 2)", "3"],
    ["max(7)", "7"],
    ["ln(e)", "1"],
    ["ln(1)", "0"],
    ["log10(1000)", "3"],
    ["log(1000)", "3"],
    ["log(8, 2)", "3"],
    ["log(81, 3)", "4"],
    ["exp(0)", "1"],
    ["exp(ln(10))", "10"],
    ["sin(0)", "0"],
    ["sin(pi/6)", "0.5"],
    ["cos(pi)", "-1"],
    ["tan(pi/4)", "1"],
    ["asin(1)*2", "3.141592653589793238462643383279503"],
    ["acos(0.5)*3", "3.141592653589793238462643383279503"],
    ["atan(1)*4", "3.141592653589793238462643383279503"],
    ["pow(2, 10)", "1024"],
    ["pow(4, 0.5)", "2"],
    ["sqrt(abs(-9)) + max(1, 2)", "5"],
  ])("evaluates functions and constants: %s = %s", (text, expected) => {
    expect(value(text)).toBe(expected);
  });

  it.each([
    ["1/0", "division by zero at position 2"],
    ["5 % 0", "division by zero in '%'"],
    ["0^-1", "division by zero: 0 raised to a negative power"],
    ["sqrt(-4)", "sqrt needs a non-negative argument, got -4"],
    ["ln(-1)", "ln needs a positive argument, got -1"],
    ["ln(0)", "ln needs a positive argument, got 0"],
    ["log10(0)", "log10 needs a positive argument"],
    ["log(8, 1)", "log needs a base that is positive and not 1, got 1"],
    ["log(8, -2)", "log needs a base that is positive and not 1"],
    ["asin(2)", "asin needs an argument from -1 to 1, got 2"],
    ["acos(-1.5)", "acos needs an argument from -1 to 1"],
    ["(-8)^(1/3)", "is not a real number"],
    ["round(1, 0.5)", "round needs digits to be an integer from -308 to 308"],
    ["sqrt()", "sqrt(x) takes 1 argument, got 0"],
    ["sqrt(1, 2)", "sqrt(x) takes 1 argument, got 2"],
    ["round(1, 2, 3)", "round(x, digits?) takes 1 or 2 arguments, got 3"],
    ["pow(2)", "pow(x, y) takes 2 arguments, got 1"],
    ["min()", "min(x, ...) takes at least 1 argument, got 0"],
    ["sqrt + 1", "'sqrt' is a function at position 1; call it as sqrt(x)"],
    ["pi(2)", "'pi' is a constant, not a function"],
    ["x + 1", "unknown name 'x' at position 1; available: pi, e, sqrt(x)"],
    ["constructor", "unknown name 'constructor'"],
    ["__proto__(1)", "unknown name '__proto__'"],
    ["toString()", "unknown name 'toString'"],
    ["PI", "unknown name 'PI'"],
    ["(1).e", "unexpected '.' at position 4"],
    ["2 pi", "missing operator before 'pi'"],
    ["1e400", "the number 1e400 is too large, the limit is 1e308"],
    ["1e-400", "the number 1e-400 is too close to zero"],
    ["1e-99999999999999999999", "too close to zero"],
    ["1e307 * 10", "the result of '*' is too large"],
    ["1e-308 / 10", "the result of '/' is too close to zero"],
    ["exp(1000)", "the result of exp is too large"],
    ["exp(-1000)", "the result of exp is too close to zero"],
    ["0.5^1e20", "the power is too close to zero"],
    ["tan(pi/2)^20", "the power is too large"],
    ["", "expression is empty"],
    ["2 # 3", 'unexpected character "#" at position 3'],
  ])("refuses %j with %j", (text, fragment) => {
    expect(refusal(text).message).toContain(fragment);
  });

  it("names an unknown identifier before a member access, and lists every available name", () => {
    const error = refusal("process.exit(1)");
    expect(error.message).toContain("unknown name 'process' at position 1");
    expect(error.message).toContain(`available: ${EXPRESSION_NAMES.join(", ")}`);
    expect(error.position).toBe(1);
    expect(EXPRESSION_NAMES).toContain("log(x, base?)");
  });

  it("refuses gigantic powers quickly", () => {
    for (const text of [
      "9^9^9^9",
      "10^1000000",
      "10^10^10",
      "2^(2^1000)",
      "pow(1.0000001, 1e300)",
      "exp(1e300)",
    ]) {
      const { result, milliseconds } = timed(() => refusal(text));
      expect(result.message).toContain("too large");
      expect(milliseconds).toBeLessThan(200);
    }
  });

  it("refuses deep nesting and megabyte inputs with an ExpressionError, never a stack overflow", () => {
    const cases: Array<[string, string]> = [
      ["(".repeat(100_000), "too long"],
      [`${"-".repeat(100_000)}1`, "too long"],
      ["(".repeat(1_000_000), "too long"],
      [`${"1+".repeat(500_000)}1`, "too long"],
      ["9".repeat(1_000_000), "too long"],
      [`${"(".repeat(100)}1${")".repeat(100)}`, "nested too deeply"],
      [`${"-".repeat(100)}1`, "nested too deeply"],
      [`${"2^".repeat(100)}2`, "nested too deeply"],
      [`${"1+".repeat(300)}1`, "too many tokens"],
    ];
    for (const [text, fragment] of cases) {
      const { result, milliseconds } = timed(() => refusal(text));
      expect(result.message).toContain(fragment);
      expect(milliseconds).toBeLessThan(200);
    }
  });

  it("evaluates the costliest expressions within the limits in well under a second", () => {
    // Trigonometry of a huge argument is decimal.js's slowest path: it reduces by pi to ~350 digits.
    const many = `${"tan(9e307)+".repeat(80)}0`;
    const precise = `${"tan(1.234567890123456789012345678901234567e307)+".repeat(20)}0`;
    for (const text of [many, precise]) {
      expect(text.length).toBeLessThanOrEqual(EXPRESSION_LIMITS.maxLength);
      const { milliseconds } = timed(() => evaluateExpression(text));
      expect(milliseconds).toBeLessThan(1000);
    }
  });

  it("turns an error from decimal.js into an ExpressionError", () => {
    expect(() => evaluate({ type: "number", text: "not a number", position: 1 })).toThrow(ExpressionError);
    expect(value("1/3")).toBe("0.3333333333333333333333333333333333");
  });
});

interface Generated {
  readonly text: string;
  readonly value: bigint;
  /** 1 for + and -, 2 for *, 3 for an operand that never needs parentheses. */
  readonly precedence: number;
}

const leaf: fc.Arbitrary<Generated> = fc
  .integer({ min: -99, max: 99 })
  .map((n) => ({ text: String(n), value: BigInt(n), precedence: 3 }));

/** Integer expressions with the fewest parentheses their grouping needs, plus some redundant ones. */
function integerExpression(depth: number): fc.Arbitrary<Generated> {
  if (depth === 0) return leaf;
  const operand = integerExpression(depth - 1);
  const combined = fc
    .tuple(fc.constantFrom("+", "-", "*"), operand, operand, fc.boolean())
    .map(([operator, left, right, wrap]): Generated => {
      const precedence = operator === "*" ? 2 : 1;
      const leftText = left.precedence < precedence ? `(${left.text})` : left.text;
      const rightNeedsParentheses =
        right.precedence < precedence || (right.precedence === precedence && operator === "-");
      const text = `${leftText} ${operator} ${rightNeedsParentheses ? `(${right.text})` : right.text}`;
      const value =
        operator === "+"
          ? left.value + right.value
          : operator === "-"
            ? left.value - right.value
            : left.value * right.value;
      return wrap ? { text: `(${text})`, value, precedence: 3 } : { text, value, precedence };
    });
  return fc.oneof(leaf, combined);
}

function returnsOrRefuses(text: string): void {
  try {
    const result = evaluateExpression(text);
    expect(typeof result.value).toBe("string");
    expect(Number.isFinite(result.number)).toBe(true);
  } catch (error) {
    expect(error).toBeInstanceOf(ExpressionError);
  }
}

const PIECES = [
  ..."0123456789.eE+-*/%^(),  ",
  "**",
  "pi",
  "e",
  "1e308",
  "9^9^9",
  "sqrt(",
  "round(",
  "log(",
  "exp(",
  "sin(",
  "tan(",
  "asin(",
  "max(",
  "pow(",
  "process",
  "x",
  "$",
  "😀",
];

describe("evaluateExpression properties", () => {
  it("agrees with BigInt arithmetic on integer expressions", () => {
    fc.assert(
      fc.property(integerExpression(4), ({ text, value: expected }) => {
        const result = evaluateExpression(text);
        expect(result.value).toBe(expected.toString());
        expect(result.number).toBe(Number(expected));
      }),
      { numRuns: 1000 },
    );
  });

  it("either returns or throws an ExpressionError on arbitrary strings", () => {
    fc.assert(fc.property(fc.string({ maxLength: 60 }), returnsOrRefuses), { numRuns: 1000 });
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 60 }), returnsOrRefuses), { numRuns: 1000 });
  });

  it("either returns or throws an ExpressionError on strings made of expression pieces", () => {
    const pieces = fc.array(fc.constantFrom(...PIECES), { maxLength: 40 }).map((parts) => parts.join(""));
    fc.assert(fc.property(pieces, returnsOrRefuses), { numRuns: 3000 });
  });
});
