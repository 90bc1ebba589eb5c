/**
 * @module A create Linear cannot repeat: the new entity's id is derived from the call's tenant, tool and
 * idempotency key (linear-ids.ts), so a retry whose first attempt went through names an id that already
 * exists. Linear does not publish how it words that refusal, so nothing here reads it: after any failed
 * create the id is looked up. An entity found there is this call's own (made by this attempt with its answer
 * lost, or by an earlier one) only if it is what the call asked for; anything else is a conflict.
 */
import { type ErrorCode, ToolFailure } from "toolreg/toolkit";

/** Failures after which the create may have been made: Linear answered with an error, or its answer was lost. */
const MAY_HAVE_CREATED: ReadonlySet<ErrorCode> = new Set(["upstream_error", "invalid_input", "timeout"]);

export interface Created<T> {
  value: T;
  /** True when the create's own answer failed and the entity was found by its id instead. */
  recovered: boolean;
}

export interface CreateOnce<T> {
  create: () => Promise<T>;
  /** The entity under the derived id, read after a failed create. */
  existing: () => Promise<T>;
  /** Whether an entity found under the id is the one this call asked for. */
  matches: (value: T) => boolean;
  /** What the call made, for the conflict message. */
  what: string;
}

export async function createOnce<T>({ create, existing, matches, what }: CreateOnce<T>): Promise<Created<T>> {
  try {
    return { value: await create(), recovered: false };
  } catch (error) {
    // Only a create that may have reached Linear can have made the entity: one egress refused (no usable
    // key, a host not allowed) sent nothing, and a rate limit or a refused key would refuse the look-up too.
    if (
      !ToolFailure.isInstance(error) ||
      !MAY_HAVE_CREATED.has(error.envelopeCode) ||
      error.details?.status === 401
    )
      throw error;
    let found: T;
    try {
      found = await existing();
    } catch {
      throw error;
    }
    if (!matches(found)) {
      throw new ToolFailure(
        "idempotency_conflict",
        `Linear already holds a different entity under the id derived from this call's idempotency key, so ${what} was not made; retry with a new idempotency key`,
        { retryable: false },
      );
    }
    return { value: found, recovered: true };
  }
}
