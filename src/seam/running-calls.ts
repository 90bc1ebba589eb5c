/**
 * @module The calls that change data and are running in this process, so that a shutdown can wait for
 * them, renew their claims while they run, and say which ones it had to leave behind. Reads are not
 * tracked: cutting one off changes nothing.
 */
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext } from "./context.js";
import { IdleWaiters } from "./idle-waiters.js";

export interface RunningCall {
  readonly context: ExecutionContext;
  readonly tool: AnyTool;
  /** The claim it runs under once taken, when it has a key. */
  claim: { key: string; claimId: string } | undefined;
  /** Whether the tool may have started: false for a keyed call still asking for its claim. */
  started: boolean;
  readonly approvalId: string | undefined;
  readonly startedAt: number;
  /** When the seam stops waiting for it (its timeout); its claim is renewed no longer than this. */
  readonly deadline: number;
  /** When its claim was last renewed in the store: the evidence a stop records if it must give it up. */
  heartbeatAt: number;
}

export class RunningCalls implements Iterable<RunningCall> {
  readonly #calls = new Set<RunningCall>();
  readonly #idle = new IdleWaiters();

  get size(): number {
    return this.#calls.size;
  }

  add(call: RunningCall): void {
    this.#calls.add(call);
  }

  delete(call: RunningCall): void {
    this.#calls.delete(call);
    if (this.#calls.size === 0) this.#idle.wake();
  }

  [Symbol.iterator](): Iterator<RunningCall> {
    return this.#calls.values();
  }

  /** Resolves true once nothing runs, or false at `timeoutMs` or when `force` aborts, whichever is first. */
  whenIdle(timeoutMs: number, force?: AbortSignal): Promise<boolean> {
    return this.#calls.size === 0 ? Promise.resolve(true) : this.#idle.wait(timeoutMs, force);
  }
}
