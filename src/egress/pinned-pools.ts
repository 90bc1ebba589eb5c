/**
 * @module Connection pools pinned to validated addresses: one pool per (origin, address), whose lookup
 * answers only that address, so a connection never resolves the name a second time.
 */
import type { LookupFunction } from "node:net";
import { Pool } from "undici";
import { normaliseHost } from "./host-pattern.js";

export interface PinnedPoolOptions {
  connectTimeoutMs: number;
  /** The certificate authorities TLS connections trust; the system's (Node's bundled ones) unless given. */
  ca?: readonly string[];
  /** Pools kept open at once; the least recently used is closed past this. */
  maxPools?: number;
}

/**
 * Keying by address as well as origin is what keeps a keep-alive connection from being reused once the
 * host's validated address changes: the new address gets a new pool, and the old pool is closed.
 */
export class PinnedPools {
  readonly #pools = new Map<string, { origin: string; pool: Pool }>();
  readonly #connectTimeoutMs: number;
  readonly #maxPools: number;
  readonly #ca: string[] | undefined;

  constructor(options: PinnedPoolOptions) {
    this.#connectTimeoutMs = options.connectTimeoutMs;
    this.#ca = options.ca ? [...options.ca] : undefined;
    this.#maxPools = options.maxPools ?? 32;
  }

  /** The pool for `origin` whose every connection goes to `address`. */
  get(origin: string, hostname: string, address: string, family: 4 | 6): Pool {
    const key = `${origin} ${address}`;
    const existing = this.#pools.get(key);
    if (existing) {
      // Re-inserting keeps the map in least-recently-used order.
      this.#pools.delete(key);
      this.#pools.set(key, existing);
      return existing.pool;
    }
    for (const [otherKey, other] of this.#pools) {
      if (other.origin === origin) this.#retire(otherKey);
    }
    const pool = new Pool(origin, {
      connections: 8,
      connect: {
        lookup: pinnedLookup(hostname, address, family),
        timeout: this.#connectTimeoutMs,
        ...(this.#ca ? { ca: this.#ca } : {}),
      },
    });
    this.#pools.set(key, { origin, pool });
    while (this.#pools.size > this.#maxPools) {
      const oldest = this.#pools.keys().next().value as string;
      this.#retire(oldest);
    }
    return pool;
  }

  /** How many pools are open; for tests and metrics. */
  get size(): number {
    return this.#pools.size;
  }

  async close(): Promise<void> {
    const pools = [...this.#pools.values()].map(({ pool }) => pool);
    this.#pools.clear();
    await Promise.all(pools.map((pool) => pool.close()));
  }

  #retire(key: string): void {
    const entry = this.#pools.get(key);
    this.#pools.delete(key);
    // close() lets requests in flight finish and then ends the pool's connections.
    entry?.pool.close().catch(() => {});
  }
}

/** A lookup that answers the validated address for the validated name, and refuses any other name. */
export function pinnedLookup(hostname: string, address: string, family: 4 | 6): LookupFunction {
  return (name, options, callback) => {
    if (normaliseHost(name) !== hostname) {
      const error: NodeJS.ErrnoException = new Error(`pinned lookup for ${hostname} was asked for ${name}`);
      error.code = "ENOTFOUND";
      callback(error, "", 0);
      return;
    }
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };
}
