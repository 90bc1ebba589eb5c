/** @module The base error every toolreg error extends: a stable string code and an `isInstance` check. */

const marker = Symbol.for("toolreg.error");

export class ToolregError extends Error {
  readonly [marker] = true;
  readonly code: string;

  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "ToolregError";
    this.code = code;
  }

  /** Works across copies of the package, where `instanceof` does not. */
  static isInstance(error: unknown): error is ToolregError {
    return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[marker] === true;
  }
}
