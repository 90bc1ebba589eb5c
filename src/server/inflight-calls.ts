/** @module The calls the server is running, so a shutdown can wait for them instead of cutting them off. */

export class InflightCalls {
  #count = 0;
  #waiters: (() => void)[] = [];
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
      if (this.#count === 0) for (const wake of this.#waiters.splice(0)) wake();
    }
  }

  /** Refuses new calls from now on and resolves once the running ones finished, or at the deadline (false). */
  drain(timeoutMs: number): Promise<boolean> {
    this.#closed = true;
    if (this.#count === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }
}
