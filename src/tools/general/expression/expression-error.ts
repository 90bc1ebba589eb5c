/** @module The one error the expression evaluator throws, with a message meant for the caller to read. */
import { ToolregError } from "../../../errors/toolreg-error.js";

/** An expression the evaluator refuses; `position` is the 1-based character the problem is at, if any. */
export class ExpressionError extends ToolregError {
  readonly position: number | undefined;

  constructor(problem: string, position?: number, hint?: string) {
    const where = position === undefined ? "" : ` at position ${position}`;
    super("invalid_expression", `${problem}${where}${hint === undefined ? "" : `; ${hint}`}`);
    this.name = "ExpressionError";
    this.position = position;
  }
}
