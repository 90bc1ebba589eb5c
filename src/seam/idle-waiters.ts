/** @module Waiting for some work to be over, bounded by a deadline and cut short by a forced stop. */

/** Those waiting for "nothing left running": woken all at once, or each let go at its deadline or on force. */
export class IdleWaiters {
  #waiters: (() => void)[] = [];

  /** Resolves true when `wake` is called, or false at `timeoutMs` or when `force` aborts, whichever is first. */
  wait(timeoutMs: number, force?: AbortSignal): Promise<boolean> {
    if (force?.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const done = (idle: boolean) => {
        clearTimeout(timer);
        force?.removeEventListener("abort", cut);
        this.#waiters = this.#waiters.filter((waiting) => waiting !== woken);
        resolve(idle);
      };
      const woken = () => done(true);
      const cut = () => done(false);
      const timer = setTimeout(cut, timeoutMs);
      force?.addEventListener("abort", cut, { once: true });
      this.#waiters.push(woken);
    });
  }

  /** Nothing is left running: every waiter resolves true. */
  wake(): void {
    for (const woken of [...this.#waiters]) woken();
  }
}
