/**
 * @module The connections of an import whose OAuth tokens are per user: one per caller (tenant and
 * principal), each with that user's own authorization (tokens sealed as the user's credential, consent
 * asked of that user), opened at the user's first call and closed once unused for a while. The count is
 * bounded: past it, the connection used longest ago (and idle) is closed. What the upstream asks on a
 * user's connection goes to that user's calls alone: each connection has its own callers.
 */
import { CallerRequests } from "../caller-requests.js";
import type { UpstreamConnection } from "../upstream-connection.js";
import type { ImportAuthorization } from "./import-authorization.js";

export interface UserKey {
  tenantId: string;
  principalId: string;
}

export type UserConnectionClosed = "idle" | "evicted";

export interface UserConnectionsInput {
  /** The imported server's name, as the refusals of its requests say it. */
  server: string;
  /** Open connections at most (100 by default). */
  max?: number | undefined;
  /** How long an unused connection stays open (5 minutes by default). */
  idleMs?: number | undefined;
  now(): number;
  /** The user's authorization: their tokens, their consent. */
  authorize(user: UserKey): ImportAuthorization;
  /** A connection (not yet connected) carrying that authorization, its requests put to `callers`. */
  connect(authorization: ImportAuthorization, callers: CallerRequests): UpstreamConnection;
  onClosed(user: UserKey, reason: UserConnectionClosed): void;
}

interface Entry {
  user: UserKey;
  authorization: ImportAuthorization;
  /** The user's calls in flight on this connection, the only ones its upstream's requests may reach. */
  callers: CallerRequests;
  connection: UpstreamConnection | undefined;
  connecting: Promise<UpstreamConnection> | undefined;
  lastUsed: number;
  inFlight: number;
}

export class UserConnections {
  readonly #input: UserConnectionsInput;
  readonly #max: number;
  readonly #idleMs: number;
  /** In order of use, the least recent first. */
  readonly #entries = new Map<string, Entry>();
  readonly #sweep: NodeJS.Timeout;

  constructor(input: UserConnectionsInput) {
    this.#input = input;
    this.#max = Math.max(1, input.max ?? 100);
    this.#idleMs = Math.max(1, input.idleMs ?? 5 * 60_000);
    this.#sweep = setInterval(() => this.#closeIdle(), Math.min(60_000, Math.max(25, this.#idleMs / 2)));
    this.#sweep.unref();
  }

  /** The user's authorization, kept with their connection; a consent completing for them uses it. */
  authorization(user: UserKey): ImportAuthorization {
    return this.#entry(user).authorization;
  }

  /** Who the upstream's requests on the user's connection are put to; a call enters it before it runs. */
  callers(user: UserKey): CallerRequests {
    return this.#entry(user).callers;
  }

  /** Runs `run` on the user's connection, connecting it first; `run`'s failures are the caller's. */
  async call<T>(user: UserKey, run: (connection: UpstreamConnection) => Promise<T>): Promise<T> {
    const entry = this.#entry(user);
    entry.inFlight++;
    try {
      return await run(entry.connection ?? (await this.#connected(entry)));
    } finally {
      entry.inFlight--;
      entry.lastUsed = this.#input.now();
    }
  }

  async close(): Promise<void> {
    clearInterval(this.#sweep);
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    await Promise.allSettled(entries.map((entry) => closeEntry(entry)));
  }

  #entry(user: UserKey): Entry {
    const key = JSON.stringify([user.tenantId, user.principalId]);
    let entry = this.#entries.get(key);
    if (entry) this.#entries.delete(key);
    else {
      entry = {
        user: { tenantId: user.tenantId, principalId: user.principalId },
        authorization: this.#input.authorize(user),
        callers: new CallerRequests(this.#input.server),
        connection: undefined,
        connecting: undefined,
        lastUsed: this.#input.now(),
        inFlight: 0,
      };
    }
    this.#entries.set(key, entry);
    this.#evict(entry);
    return entry;
  }

  /** One connection attempt at a time per user; a failed one (consent needed) is tried again next call. */
  #connected(entry: Entry): Promise<UpstreamConnection> {
    entry.connecting ??= (async () => {
      const connection = this.#input.connect(entry.authorization, entry.callers);
      try {
        await connection.connect();
        entry.connection = connection;
        return connection;
      } catch (error) {
        await connection.close();
        throw error;
      } finally {
        entry.connecting = undefined;
      }
    })();
    return entry.connecting;
  }

  #evict(keep: Entry): void {
    for (const [key, entry] of this.#entries) {
      if (this.#entries.size <= this.#max) return;
      if (entry === keep || entry.inFlight > 0) continue;
      this.#drop(key, entry, "evicted");
    }
  }

  #closeIdle(): void {
    const now = this.#input.now();
    for (const [key, entry] of this.#entries) {
      if (entry.inFlight === 0 && now - entry.lastUsed >= this.#idleMs) this.#drop(key, entry, "idle");
    }
  }

  #drop(key: string, entry: Entry, reason: UserConnectionClosed): void {
    this.#entries.delete(key);
    closeEntry(entry).finally(() => this.#input.onClosed(entry.user, reason));
  }
}

async function closeEntry(entry: Entry): Promise<void> {
  await Promise.allSettled([entry.connection?.close(), entry.authorization.close()]);
}
