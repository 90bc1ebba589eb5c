/** @module The idempotency key and the argument fingerprint claimed with it. */
import { canonicalJson, sha256 } from "../declaration/tool-hash.js";
import type { ExecutionContext } from "./context.js";

/** The host's key when it gave one, else one derived from the run and tool call (the store scopes it by tenant). */
export function idempotencyKeyFor(context: ExecutionContext): string {
  return context.idempotencyKey ?? `run:${context.runId}/call:${context.toolCallId}`;
}

/** Same tool and same arguments ⇒ same fingerprint, whatever the key order. */
export function fingerprintOf(toolName: string, input: unknown): string {
  return sha256(`${toolName}\n${canonicalJson(input)}`);
}
