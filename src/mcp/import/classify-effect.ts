/**
 * @module The effect of an imported tool: the deployment's word when it gave one, else the safe reading
 * of the upstream's hints. Only `readOnlyHint: true` makes a read; `destructiveHint: true` makes a
 * destructive tool; anything else is an external write, so approval and an idempotency key apply. What
 * a client is told keeps the upstream's hints wherever they are more cautious than that effect.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Effect } from "../../declaration/effect.js";
import type { ToolHints } from "../../declaration/hints.js";

export interface Classification {
  effect: Effect;
  /** Where the effect came from, for the catalogue's docs and the import report. */
  basis: "deployment" | "readOnlyHint" | "destructiveHint" | "default";
}

export function classifyEffect(
  annotations: ToolAnnotations | undefined,
  configured?: Effect,
): Classification {
  // The deployment's classification stands whatever the upstream claims: a hint can neither lower nor raise it.
  if (configured) return { effect: configured, basis: "deployment" };
  // A tool claiming both is taken at its more dangerous word.
  if (annotations?.destructiveHint === true) return { effect: "destructive", basis: "destructiveHint" };
  if (annotations?.readOnlyHint === true) return { effect: "read", basis: "readOnlyHint" };
  return { effect: "external-write", basis: "default" };
}

/**
 * The hints an imported tool adds to its effect: it reaches its upstream, another system (open world,
 * whatever the upstream says), and the upstream's own word wherever it is the more cautious (not
 * read-only, destructive, not safe to repeat), even against the deployment's classification. A hint the
 * upstream omits is not its word: the effect decides it.
 */
export function importedHints(annotations: ToolAnnotations | undefined): ToolHints {
  return {
    openWorld: true,
    ...(annotations?.readOnlyHint === false ? { readOnly: false } : {}),
    ...(annotations?.destructiveHint === true ? { destructive: true } : {}),
    ...(annotations?.idempotentHint === false ? { idempotent: false } : {}),
  };
}
