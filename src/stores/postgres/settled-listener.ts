/**
 * @module Hears, over one LISTEN connection, when a claim leaves `in_progress` (migration 4's trigger
 * notifies "<schema>_settled"), so a caller waiting on a call another instance runs is woken by the
 * database rather than polling it. The connection is opened on the first wait; while it is down a wait
 * lasts its timeout, as a poll would, and the next wait opens it again.
 */
import pg from "pg";

type Waiter = () => void;

export class SettledListener {
  readonly #config: pg.ClientConfig;
  readonly #channel: string;
  readonly #waiters = new Map<string, Set<Waiter>>();
  #client: Promise<pg.Client | undefined> | undefined;
  #closed = false;

  /** `schema` unquoted: the trigger names the channel after the table's schema. */
  constructor(config: pg.ClientConfig, schema: string) {
    this.#config = config;
    this.#channel = `${schema}_settled`;
  }

  /**
   * Resolves when the key's claim may have settled, or after `timeoutMs`. `stillRunning` is asked once the
   * listener is in place: a claim that settled before it was would otherwise be waited out to the timeout.
   */
  async wait(
    tenantId: string,
    key: string,
    timeoutMs: number,
    stillRunning: () => Promise<boolean>,
  ): Promise<void> {
    const id = JSON.stringify([tenantId, key]);
    let wake: Waiter = () => {};
    const woken = new Promise<void>((resolve) => {
      wake = resolve;
    });
    const waiters = this.#waiters.get(id) ?? new Set<Waiter>();
    waiters.add(wake);
    this.#waiters.set(id, waiters);
    const timer = setTimeout(wake, timeoutMs);
    try {
      if ((await this.#listening()) && !(await stillRunning().catch(() => true))) return;
      await woken;
    } finally {
      clearTimeout(timer);
      waiters.delete(wake);
      if (waiters.size === 0) this.#waiters.delete(id);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiters of this.#waiters.values()) for (const wake of waiters) wake();
    const client = await this.#client?.catch(() => undefined);
    this.#client = undefined;
    await client?.end().catch(() => {});
  }

  /** The LISTEN connection, opened once; undefined while it cannot be (the waits then time out). */
  #listening(): Promise<pg.Client | undefined> {
    if (this.#closed) return Promise.resolve(undefined);
    this.#client ??= this.#connect();
    return this.#client;
  }

  async #connect(): Promise<pg.Client | undefined> {
    const client = new pg.Client(this.#config);
    // A dropped connection is forgotten: the next wait opens another, and no event is left to end the process.
    const forget = () => {
      if (this.#client === opening) this.#client = undefined;
    };
    client.on("error", forget);
    client.on("end", forget);
    client.on("notification", (message) => {
      if (message.channel !== this.#channel || !message.payload) return;
      for (const wake of this.#waiters.get(waiterId(message.payload)) ?? []) wake();
    });
    const opening = (async () => {
      try {
        await client.connect();
        await client.query(`LISTEN "${this.#channel}"`);
        return client;
      } catch {
        await client.end().catch(() => {});
        forget();
        return undefined;
      }
    })();
    this.#client = opening;
    return opening;
  }
}

/** The payload (PostgreSQL's JSON text of [tenant, key]) as `wait` names its waiters. */
function waiterId(payload: string): string {
  try {
    return JSON.stringify(JSON.parse(payload));
  } catch {
    return "";
  }
}
