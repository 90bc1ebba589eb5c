/**
 * @module A parked task's wait for its approval to be decided. The approval store is the truth: a decision
 * taken anywhere (the API, the console, `toolreg approvals`, another instance) is read from it, every
 * `pollMs` and at the approval's expiry; the host's approval events only wake the wait sooner.
 */
import type { ApprovalStore } from "../../ports/stores.js";

/** What tells a waiting task that an approval changed; returns how to stop listening. */
export type ApprovalChanges = (listener: (approvalId: string) => void) => () => void;

export interface DecisionWait {
  approvals: Pick<ApprovalStore, "get">;
  tenantId: string;
  approvalId: string;
  signal: AbortSignal;
  changes?: ApprovalChanges;
  /** How long between looks at the store when nothing wakes the wait. */
  pollMs: number;
  now?: () => number;
}

/**
 * Resolves true once the approval is no longer waiting for a person (decided, expired, or gone), false
 * when `signal` aborts first. A store that fails is asked again at the next look.
 */
export async function approvalDecided(wait: DecisionWait): Promise<boolean> {
  const { approvals, tenantId, approvalId, signal, pollMs } = wait;
  const now = wait.now ?? Date.now;
  let wake = () => {};
  // A change heard while the store is being read is not lost: the next look follows at once.
  let changed = false;
  const stopListening = wait.changes?.((id) => {
    if (id !== approvalId) return;
    changed = true;
    wake();
  });
  try {
    while (!signal.aborted) {
      let expiresAt = Number.POSITIVE_INFINITY;
      changed = false;
      try {
        const record = await approvals.get({ tenantId, id: approvalId });
        if (record?.status !== "pending" || record.expiresAt <= now()) return true;
        expiresAt = record.expiresAt;
      } catch {
        // Read again at the next look; the decision, when it comes, is still there.
      }
      if (changed) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, Math.max(0, Math.min(pollMs, expiresAt - now())));
        function done() {
          clearTimeout(timer);
          signal.removeEventListener("abort", done);
          resolve();
        }
        wake = done;
        signal.addEventListener("abort", done, { once: true });
      });
    }
    return false;
  } finally {
    stopListening?.();
  }
}
