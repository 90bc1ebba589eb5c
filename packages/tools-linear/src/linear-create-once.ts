/**
 * @module A create Linear cannot repeat: the new entity's id is derived from the call's idempotency key
 * (linear-ids.ts), so a retry whose first attempt went through names an id that already exists. Linear
 * does not publish how it words that refusal, so nothing here reads it: after any failed create, the id
 * is looked up, and an entity found there is the earlier attempt's, reported as such instead of the error.
 */
import { type ErrorCode, ToolFailure } from "toolreg/toolkit";

/** Failures after which the create may have been made: Linear answered with an error, or its answer was lost. */
const MAY_HAVE_CREATED: ReadonlySet<ErrorCode> = new Set(["upstream_error", "invalid_input", "timeout"]);

export interface Created<T> {
  value: T;
  /** True when an earlier attempt under the same key had already created it. */
  existed: boolean;
}

export async function createOnce<T>(
  create: () => Promise<T>,
  existing: () => Promise<T>,
): Promise<Created<T>> {
  try {
    return { value: await create(), existed: false };
  } catch (error) {
    // Only a create that may have reached Linear can have made the entity: one egress refused (no usable
    // key, a host not allowed) sent nothing, and a rate limit or a refused key would refuse the look-up too.
    if (
      !ToolFailure.isInstance(error) ||
      !MAY_HAVE_CREATED.has(error.envelopeCode) ||
      error.details?.status === 401
    )
      throw error;
    try {
      return { value: await existing(), existed: true };
    } catch {
      throw error;
    }
  }
}
