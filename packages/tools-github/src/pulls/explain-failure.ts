/**
 * @module A tool's own reading of a GitHub failure that github-failure.ts maps for every tool: where one
 * endpoint gives a status a sharper meaning (405 on merge, 409 on a moved head), the tool says what to do.
 */
import { ToolFailure } from "toolreg/toolkit";

/** Says what GitHub's answer means for this call; undefined keeps the shared message. */
export type Explain = (failure: ToolFailure, githubMessage: string) => string | undefined;

/** Runs a request; a failure whose status `explain` knows is thrown again with that message, code unchanged. */
export async function explainingFailures<T>(
  run: () => Promise<T>,
  explain: Partial<Record<number, Explain>>,
): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!ToolFailure.isInstance(error)) throw error;
    const status = error.details?.status;
    const said = String(error.details?.githubMessage ?? "");
    const message = typeof status === "number" ? explain[status]?.(error, said) : undefined;
    if (message === undefined) throw error;
    throw new ToolFailure(error.envelopeCode, message, {
      ...(error.retryable === undefined ? {} : { retryable: error.retryable }),
      ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      ...(error.details === undefined ? {} : { details: error.details }),
      cause: error,
    });
  }
}
