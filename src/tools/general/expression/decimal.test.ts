import { describe, expect, it } from "vitest";
import { checked, ExactDecimal, restoreDecimal, toResult } from "./decimal.js";
import { ExpressionError } from "./expression-error.js";

describe("decimal context", () => {
  it("restores decimal.js after one of its throws leaves later results unrounded", () => {
    // sin of 1e1000 needs pi to more digits than decimal.js keeps, and it throws mid-computation.
    expect(() => new ExactDecimal("1e1000").sin()).toThrow("Precision limit exceeded");
    expect(new ExactDecimal(1).div(3).toString().length).toBeGreaterThan(42);
    restoreDecimal();
    expect(new ExactDecimal(1).div(3).toString()).toBe(`0.${"3".repeat(40)}`);
    expect(ExactDecimal.precision).toBe(40);
  });

  it("range-checks values both ways and refuses NaN", () => {
    expect(checked(new ExactDecimal("9.9e307"), "x").toString()).toBe("9.9e+307");
    expect(checked(new ExactDecimal(0), "x").isZero()).toBe(true);
    expect(() => checked(new ExactDecimal("1e308"), "x")).toThrow("x is too large, the limit is 1e308");
    expect(() => checked(new ExactDecimal("9e-309"), "x")).toThrow("x is too close to zero");
    expect(() => checked(new ExactDecimal(Number.NaN), "x", 3)).toThrow(ExpressionError);
  });

  it("rounds results to 34 digits and shows negative zero as 0", () => {
    expect(toResult(new ExactDecimal(2).div(3))).toEqual({ value: `0.${"6".repeat(33)}7`, number: 2 / 3 });
    expect(toResult(new ExactDecimal(-0))).toEqual({ value: "0", number: 0 });
    expect(toResult(new ExactDecimal("1.5e40")).value).toBe("1.5e+40");
  });
});
