/** @module Effects and the governance values derived from them. */

/** What a call can do to the world. */
export const EFFECTS = ["read", "internal-write", "external-write", "destructive"] as const;
export type Effect = (typeof EFFECTS)[number];

/** Whether a call waits for a human: `never` runs, `always` parks, `policy` asks the host's policy. */
export const APPROVALS = ["never", "policy", "always"] as const;
export type Approval = (typeof APPROVALS)[number];

/** The values the registry derives from an effect unless a declaration overrides them with a reason. */
export interface DerivedGovernance {
  approval: Approval;
  idempotencyKey: boolean;
}

/**
 * The one place effect → approval and effect → idempotency are decided. Exhaustive over `Effect`:
 * a new effect value is a compile error here, never a silent "no approval".
 */
export function deriveGovernance(effect: Effect): DerivedGovernance {
  switch (effect) {
    case "read":
    case "internal-write":
      return { approval: "never", idempotencyKey: false };
    case "external-write":
    case "destructive":
      return { approval: "always", idempotencyKey: true };
    default: {
      const unreachable: never = effect;
      throw new Error(`unknown effect ${String(unreachable)}`);
    }
  }
}

/** True for effects that change something (everything but `read`); gated assistants park these. */
export function changesData(effect: Effect): boolean {
  return effect !== "read";
}

export function isEffect(value: unknown): value is Effect {
  return typeof value === "string" && (EFFECTS as readonly string[]).includes(value);
}
