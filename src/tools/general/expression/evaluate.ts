/** @module Evaluates an expression tree in exact decimal arithmetic, range-checking every intermediate value. */
import type { Decimal } from "decimal.js";
import { checked, ExactDecimal, restoreDecimal, tooSmall } from "./decimal.js";
import { ExpressionError } from "./expression-error.js";
import { call, constant, power } from "./functions.js";
import { EXPRESSION_LIMITS } from "./limits.js";
import type { BinaryOperator, ExpressionNode } from "./parse.js";

/** Evaluates `node`; every refusal, including any error from decimal.js, is an ExpressionError. */
export function evaluate(node: ExpressionNode): Decimal {
  try {
    return evaluateNode(node);
  } catch (error) {
    if (error instanceof ExpressionError) throw error;
    // The range checks should keep decimal.js from ever throwing; if it does, undo the state it leaves.
    restoreDecimal();
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExpressionError(`could not evaluate the expression: ${reason}`);
  }
}

function evaluateNode(node: ExpressionNode): Decimal {
  switch (node.type) {
    case "number":
      return literal(node.text, node.position);
    case "name":
      return constant(node.name, node.position);
    case "unary": {
      const operand = evaluateNode(node.operand);
      return node.operator === "-" ? operand.neg() : operand;
    }
    case "binary":
      return operate(node.operator, evaluateNode(node.left), evaluateNode(node.right), node.position);
    case "call":
      return call(node.name, node.args.map(evaluateNode), node.position);
  }
}

function literal(text: string, position: number): Decimal {
  // Rounded to the working precision like every other value, which bounds the cost of what follows.
  const value = new ExactDecimal(text).toSignificantDigits(EXPRESSION_LIMITS.precision);
  const shown = text.length > 24 ? `${text.slice(0, 20)}...` : text;
  // decimal.js turns an exponent below its own minimum into zero; "1e-99999999999999999" is not zero.
  const mantissa = text.split(/e/i)[0] ?? "";
  if (value.isZero() && /[1-9]/.test(mantissa)) throw tooSmall(`the number ${shown}`, position);
  return checked(value, `the number ${shown}`, position);
}

function operate(operator: BinaryOperator, left: Decimal, right: Decimal, position: number): Decimal {
  const what = `the result of '${operator}'`;
  switch (operator) {
    case "+":
      return checked(left.plus(right), what, position);
    case "-":
      return checked(left.minus(right), what, position);
    case "*":
      return checked(left.times(right), what, position);
    case "/":
      if (right.isZero()) throw new ExpressionError("division by zero", position);
      return checked(left.div(right), what, position);
    case "%":
      if (right.isZero()) throw new ExpressionError("division by zero in '%'", position);
      return checked(left.mod(right), what, position);
    case "^":
      return power(left, right, position);
  }
}
