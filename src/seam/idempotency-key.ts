/** @module The idempotency key and the argument fingerprint claimed with it. */
import { canonicalJson, sha256 } from "../declaration/tool-hash.js";
import type { ExecutionContext } from "./context.js";

/** The host's key when it gave one, else one derived from the run and tool call (the store scopes it by tenant). */
export function idempotencyKeyFor(context: ExecutionContext): string {
  // JSON-encoded, because run and call ids may themselves contain any separator we could choose.
  return context.idempotencyKey ?? `call:${JSON.stringify([context.runId, context.toolCallId])}`;
}

/** Arguments that are stored (in an approval) or fingerprinted are bounded: 1 MiB of canonical JSON. */
export const MAX_STORED_INPUT_CHARS = 1024 * 1024;

/** The canonical JSON of arguments about to be stored or fingerprinted, or why they cannot be. */
export function storableInput(input: unknown): { ok: true; json: string } | { ok: false; reason: string } {
  let json: string;
  try {
    json = canonicalJson(input) ?? "null";
  } catch (error) {
    // Nesting deep enough to exhaust the stack, a BigInt, a cycle: none of them is an argument list.
    const reason =
      error instanceof RangeError ? "the arguments nest too deeply" : "the arguments are not JSON";
    return { ok: false, reason };
  }
  if (json.length > MAX_STORED_INPUT_CHARS) {
    return { ok: false, reason: `the arguments are over ${MAX_STORED_INPUT_CHARS} characters of JSON` };
  }
  return { ok: true, json };
}

/**
 * Same caller, same tool and same canonical arguments ⇒ same fingerprint, whatever the key order. The
 * caller is part of it: a key is scoped by tenant, and a colleague in the tenant who sends the same key
 * is making another call. It is refused as a conflict, never answered with the first caller's result,
 * and never run, since a tool may deduplicate on the key itself.
 */
export function fingerprintOf(principalId: string, toolName: string, canonicalInput: string): string {
  return sha256(`${JSON.stringify(principalId)}\n${toolName}\n${canonicalInput}`);
}
