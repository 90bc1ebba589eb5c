/** @module The ToolFailure a promise was meant to reject with; a success, or any other error, fails the test. */
import { ToolFailure } from "../../src/errors/tool-failure.js";

export async function refusal(promise: Promise<unknown>): Promise<ToolFailure> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!ToolFailure.isInstance(error)) throw new Error(`expected a ToolFailure, got ${String(error)}`);
  return error;
}
