/** @module The answer when a store fails under a call: a full disk or a lost connection is passing, not final. */
import { type ErrorEnvelope, failure } from "./envelope.js";
import { describeThrown } from "./to-envelope.js";

/** How long a caller is asked to wait before retrying after a store failure. */
const STORE_RETRY_AFTER_MS = 1_000;

/** Nothing was run: the store could not record the step (`what`) that comes before the side effect. */
export function storeFailure(what: string, error: unknown): ErrorEnvelope {
  return failure(
    "internal",
    `toolreg's state store could not ${what} (${describeThrown(error)}); nothing was run. Retry later: a full disk or a lost connection passes`,
    { retryable: true, retryAfterMs: STORE_RETRY_AFTER_MS, details: { store: "unavailable" } },
  );
}
