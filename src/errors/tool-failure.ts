import type { ErrorCode } from "../seam/envelope.js";
import { ToolregError } from "./toolreg-error.js";

/**
 * What a tool throws to fail with a specific envelope code (an upstream 429, a refused egress …).
 * Anything else a tool throws becomes `internal`.
 */
export class ToolFailure extends ToolregError {
  readonly envelopeCode: ErrorCode;
  readonly retryable: boolean | undefined;
  readonly retryAfterMs: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(
    code: ErrorCode,
    message: string,
    options: {
      retryable?: boolean;
      retryAfterMs?: number;
      details?: Record<string, unknown>;
      cause?: unknown;
    } = {},
  ) {
    super(code, message, { cause: options.cause });
    this.name = "ToolFailure";
    this.envelopeCode = code;
    this.retryable = options.retryable;
    this.retryAfterMs = options.retryAfterMs;
    this.details = options.details;
  }

  static override isInstance(error: unknown): error is ToolFailure {
    return ToolregError.isInstance(error) && "envelopeCode" in error;
  }
}
