/** @module The calls the server is running, so a shutdown can wait for them instead of cutting them off. */
import { IdleWaiters } from "../seam/idle-waiters.js";

export class InflightCalls {
  #count = 0;
  readonly #idle = new IdleWaiters();
  #closed = false;

  get closed(): boolean {
    return this.#closed;
  }

  get count(): number {
    return this.#count;
  }

  /** Runs `work` as one in-flight call. */
  async track<T>(work: () => Promise<T>): Promise<T> {
    this.#count++;
    try {
      return await work();
    } finally {
      this.#count--;
      if (this.#count === 0) this.#idle.wake();
    }
  }

  /**
   * Refuses new calls from now on and resolves once the running ones finished (true), or at the deadline
   * or when `force` aborts (false).
   */
  drain(timeoutMs: number, force?: AbortSignal): Promise<boolean> {
    this.#closed = true;
    return this.#count === 0 ? Promise.resolve(true) : this.#idle.wait(timeoutMs, force);
  }
}
