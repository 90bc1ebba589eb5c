/**
 * @module What provenance an artifact keeps when the same bytes are put under the same name more than once,
 * by every adapter alike: the same address is one artifact, so untrusted wins and is never made trusted.
 */
import type { Provenance } from "../seam/envelope.js";

/** The provenance kept after `put` lands on an artifact that already holds `kept` (undefined: none yet). */
export function keptProvenance(
  kept: Provenance | undefined,
  put: Provenance | undefined,
): Provenance | undefined {
  if (kept && !kept.trusted) return kept;
  if (put && !put.trusted) return put;
  return kept ?? put;
}

/** What a store reads back where a provenance it kept cannot be read: untrusted, so it is served fenced. */
export const UNREADABLE_PROVENANCE: Provenance = { source: "unknown", trusted: false };
