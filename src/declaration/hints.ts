/**
 * @module Hints a declaration adds to what its effect implies about its behaviour (served over MCP as tool
 * annotations). A hint can only add caution: a declaration never tells a client less than its effect does.
 */
import type { Effect } from "./effect.js";

/** What the effect does not say: that the tool may change or destroy things, may not be safe to repeat, or reaches outside. */
export interface ToolHints {
  readOnly?: false;
  /** It may delete or overwrite what is there (not only add). */
  destructive?: true;
  idempotent?: false;
  /** It reaches systems outside the deployment: the web, a third party's API, another MCP server. */
  openWorld?: true;
}

/** The four hints as a client reads them. */
export type BehaviourHints = { [K in keyof ToolHints]-?: boolean };

/** The cautious value of each hint: the only one a declaration may give. */
const CAUTIOUS: BehaviourHints = { readOnly: false, destructive: true, idempotent: false, openWorld: true };
const HINT_NAMES = Object.keys(CAUTIOUS) as (keyof ToolHints)[];

/** What the effect alone implies. An external write reaches a third party by definition. */
export function hintsOfEffect(effect: Effect): BehaviourHints {
  return {
    readOnly: effect === "read",
    destructive: effect === "destructive",
    idempotent: effect === "read",
    openWorld: effect === "external-write",
  };
}

/**
 * The declared hints the effect does not already imply (undefined when none), or a problem naming the
 * hint that would not add caution.
 */
export function hintsBeyondEffect(
  effect: Effect,
  hints: ToolHints | undefined,
): { hints: ToolHints | undefined } | { problem: string } {
  if (hints === undefined) return { hints: undefined };
  if (typeof hints !== "object" || hints === null) return { problem: "must be an object" };
  const implied = hintsOfEffect(effect);
  const beyond: Record<string, boolean> = {};
  for (const [name, value] of Object.entries(hints)) {
    const key = name as keyof ToolHints;
    if (!HINT_NAMES.includes(key)) return { problem: `${name} is not a hint (${HINT_NAMES.join(", ")})` };
    if (value === undefined) continue;
    if (value !== CAUTIOUS[key])
      return { problem: `${name} can only be ${CAUTIOUS[key]}: a hint adds caution, it never removes it` };
    if (implied[key] !== value) beyond[key] = value;
  }
  return { hints: Object.keys(beyond).length > 0 ? (beyond as ToolHints) : undefined };
}
