/**
 * @module The effect of an imported tool: the deployment's word when it gave one, else the safe reading
 * of the upstream's hints. Only `readOnlyHint: true` makes a read; `destructiveHint: true` makes a
 * destructive tool; anything else is an external write, so approval and an idempotency key apply.
 */
import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { Effect } from "../../declaration/effect.js";

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
