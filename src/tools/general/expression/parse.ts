/** @module A precedence-climbing parser from tokens to an expression tree, with bounded recursion. */
import { ExpressionError } from "./expression-error.js";
import { EXPRESSION_LIMITS } from "./limits.js";
import type { Token } from "./tokenize.js";

export type BinaryOperator = "+" | "-" | "*" | "/" | "%" | "^";

/** A node of the expression tree; `position` is the 1-based source position of its token. */
export type ExpressionNode =
  | { readonly type: "number"; readonly text: string; readonly position: number }
  | { readonly type: "name"; readonly name: string; readonly position: number }
  | {
      readonly type: "unary";
      readonly operator: "+" | "-";
      readonly operand: ExpressionNode;
      readonly position: number;
    }
  | {
      readonly type: "binary";
      readonly operator: BinaryOperator;
      readonly left: ExpressionNode;
      readonly right: ExpressionNode;
      readonly position: number;
    }
  | {
      readonly type: "call";
      readonly name: string;
      readonly args: readonly ExpressionNode[];
      readonly position: number;
    };

// A right binding above the left one makes an operator left-associative; equal makes it right-associative.
const BINDING: Readonly<Record<string, { operator: BinaryOperator; left: number; right: number }>> = {
  "+": { operator: "+", left: 10, right: 11 },
  "-": { operator: "-", left: 10, right: 11 },
  "*": { operator: "*", left: 20, right: 21 },
  "/": { operator: "/", left: 20, right: 21 },
  "%": { operator: "%", left: 20, right: 21 },
  "^": { operator: "^", left: 40, right: 40 },
  "**": { operator: "^", left: 40, right: 40 },
};
// Between `* / %` and `^`: `-2*3` is `(-2)*3` but `-2^2` is `-(2^2)`.
const UNARY_BINDING = 30;
const OPERAND_HINT = "expected a number, a name or '('";

/** Parses tokens into a tree; throws ExpressionError on a syntax error or nesting past the depth limit. */
export function parse(tokens: readonly Token[]): ExpressionNode {
  if (tokens.length === 0) throw new ExpressionError("expression is empty");
  let index = 0;

  function expression(minBinding: number, depth: number): ExpressionNode {
    if (depth > EXPRESSION_LIMITS.maxDepth) {
      throw new ExpressionError(
        `expression is nested too deeply, the limit is ${EXPRESSION_LIMITS.maxDepth} levels`,
        tokens[index]?.position,
      );
    }
    let left = operand(depth);
    for (;;) {
      const token = tokens[index];
      if (token === undefined || token.type === ")" || token.type === ",") return left;
      if (token.type !== "operator") throw afterOperand(token);
      const binding = BINDING[token.text];
      if (binding === undefined) throw new ExpressionError(`unexpected '${token.text}'`, token.position);
      if (binding.left < minBinding) return left;
      index++;
      const right = expression(binding.right, depth + 1);
      left = { type: "binary", operator: binding.operator, left, right, position: token.position };
    }
  }

  function operand(depth: number): ExpressionNode {
    const token = tokens[index];
    if (token === undefined) {
      const last = tokens[index - 1];
      throw new ExpressionError(`expression ends after '${last?.text}'`, last?.position, OPERAND_HINT);
    }
    index++;
    const { text, position } = token;
    switch (token.type) {
      case "number":
        return { type: "number", text, position };
      case "name":
        if (tokens[index]?.type !== "(") return { type: "name", name: text, position };
        index++;
        return { type: "call", name: text, args: callArguments(token, depth), position };
      case "(": {
        const inner = expression(0, depth + 1);
        close(token);
        return inner;
      }
      case "operator":
        if (text === "+" || text === "-") {
          return { type: "unary", operator: text, operand: expression(UNARY_BINDING, depth + 1), position };
        }
        break;
    }
    throw new ExpressionError(`unexpected '${text}'`, position, OPERAND_HINT);
  }

  function callArguments(name: Token, depth: number): ExpressionNode[] {
    const args: ExpressionNode[] = [];
    if (tokens[index]?.type === ")") {
      index++;
      return args;
    }
    for (;;) {
      args.push(expression(0, depth + 1));
      if (tokens[index]?.type !== ",") break;
      index++;
    }
    close(name);
    return args;
  }

  function close(opener: Token): void {
    const token = tokens[index];
    if (token?.type === ")") {
      index++;
      return;
    }
    const what = `${opener.type === "name" ? `the call to '${opener.text}'` : "'('"} at position ${opener.position}`;
    if (token === undefined) throw new ExpressionError(`missing ')' to close ${what}`);
    throw new ExpressionError(`expected ')' to close ${what}, found '${token.text}'`, token.position);
  }

  const tree = expression(0, 0);
  const extra = tokens[index];
  if (extra !== undefined) throw new ExpressionError(`unexpected '${extra.text}'`, extra.position);
  return tree;
}

/** The error for a token that cannot follow a complete operand, with a hint for the usual mistakes. */
function afterOperand(token: Token): ExpressionError {
  if (token.type === ".") {
    return new ExpressionError(
      "unexpected '.'",
      token.position,
      "member access and method calls are not supported",
    );
  }
  return new ExpressionError(
    `missing operator before '${token.text}'`,
    token.position,
    "write multiplication explicitly with *",
  );
}
