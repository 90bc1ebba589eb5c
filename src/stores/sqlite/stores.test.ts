/** @module The SQLite adapters against the store conformance suite, plus what only a shared file can get wrong. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runStoreConformance } from "../../../test/conformance/stores.js";
import type {
  ClaimInput,
  ClaimOutcome,
  DecideInput,
  DecideOutcome,
  FinishInput,
  NewApproval,
} from "../../ports/stores.js";
import { MIGRATIONS, migrate, openSqliteStores, type SqliteStores } from "./index.js";

const directories: string[] = [];
const opened: SqliteStores[] = [];

function temporaryFile(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-sqlite-"));
  directories.push(directory);
  return join(directory, "stores.db");
}

function open(path: string): SqliteStores {
  const stores = openSqliteStores(path);
  opened.push(stores);
  return stores;
}

afterEach(() => {
  for (const stores of opened.splice(0)) if (stores.database.open) stores.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

runStoreConformance("sqlite", async () => {
  const path = join(mkdtempSync(join(tmpdir(), "toolreg-sqlite-")), "stores.db");
  let current = openSqliteStores(path);
  return {
    stores: current,
    // Closing and opening the file again is the nearest a test gets to a process dying between two calls.
    reopen: async () => {
      current.close();
      current = openSqliteStores(path);
      return current;
    },
    cleanup: async () => {
      current.close();
      rmSync(join(path, ".."), { recursive: true, force: true });
    },
  };
});

const claimOf = (claimId: string, key = "key-1"): ClaimInput => ({
  tenantId: "tenant-a",
  key,
  fingerprint: "fp-1",
  toolName: "mail.send",
  claimId,
  principalId: "agent:alice",
  holder: "host-a:1",
  reclaimable: true,
  now: 1_000,
  leaseMs: 30_000,
  retentionMs: 86_400_000,
});

describe("sqlite database", () => {
  it("applies the migrations on open and is idempotent on reopen", () => {
    const path = temporaryFile();
    const first = open(path);
    expect(first.database.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    const tables = first.database
      .prepare<[], { name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .all()
      .map((row) => row.name);
    expect(tables).toEqual([
      "approvals",
      "attachments",
      "audit",
      "consent_requests",
      "credentials",
      "idempotency",
      "knowledge_chunks",
      "knowledge_chunks_fts",
      "knowledge_chunks_fts_config",
      "knowledge_chunks_fts_data",
      "knowledge_chunks_fts_docsize",
      "knowledge_chunks_fts_idx",
      "knowledge_sources",
      "knowledge_vectors",
      "mcp_pins",
      "memories",
      "memories_fts",
      "memories_fts_config",
      "memories_fts_data",
      "memories_fts_docsize",
      "memories_fts_idx",
      "parked_calls",
      "schedules",
      "skill_versions",
      "skills",
      "todo_lists",
      "toolkit_records",
    ]);
    first.audit.record({
      tenantId: "tenant-a",
      id: "event-1",
      at: 1,
      kind: "tool-call",
      actor: "agent",
      runId: undefined,
      toolCallId: undefined,
      tool: "mail.send",
      toolVersion: undefined,
      effect: undefined,
      outcome: "ok",
      durationMs: undefined,
      approvalId: undefined,
      idempotencyKey: undefined,
      approval: undefined,
      message: undefined,
    });
    first.close();

    const second = open(path);
    expect(second.database.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    expect(migrate(second.database)).toBe(MIGRATIONS.length);
    expect(second.database.prepare("SELECT count(*) AS n FROM audit").get()).toEqual({ n: 1 });
  });

  it("brings a version-2 file's claims and approvals into version 3 whole, as records of their time", async () => {
    const path = temporaryFile();
    const old = new Database(path);
    migrate(old, MIGRATIONS.slice(0, 2));
    old
      .prepare(
        `INSERT INTO idempotency (tenant_id, key, fingerprint, tool_name, status, claim_id, envelope, lease_until,
           created_at, updated_at, retain_until) VALUES ('t', 'k', 'fp', 'mail.send', 'unknown', 'c1', NULL, 10, 1, 5, 99)`,
      )
      .run();
    old
      .prepare(
        `INSERT INTO approvals (tenant_id, id, tool_name, tool_version, effect, definition_hash, input, description,
           requested_by, run_id, tool_call_id, idempotency_key, status, created_at, expires_at, decided_by, decided_at)
         VALUES ('t', 'a1', 'mail.send', '1.0.0', 'external-write', 'h', '{"to":"x"}', 'd', 'p', 'r', 'c', 'k',
           'approved', 1, 100, 'bob', 2)`,
      )
      .run();
    old.close();
    const stores = open(path);
    expect(stores.database.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
    // The evidence a record had then: when it was claimed and its last word; nobody is named.
    expect(await stores.idempotency.get({ tenantId: "t", key: "k" })).toMatchObject({
      status: "unknown",
      claimedAt: 1,
      heartbeatAt: 5,
      claimedBy: "",
      holder: "",
    });
    expect(await stores.approvals.get({ tenantId: "t", id: "a1" })).toMatchObject({
      status: "approved",
      input: { to: "x" },
      fingerprint: "",
      decidedBy: "bob",
      interruption: undefined,
    });
    // The new status is accepted by the rebuilt table.
    expect(
      await stores.approvals.interrupt({ tenantId: "t", id: "a1", interruption: { reason: "lost", at: 3 } }),
    ).toBe(true);
    expect((await stores.approvals.park(approvalOf("again"))).created).toBe(true);
  });

  it("rolls a failing migration back whole and keeps the versions before it", () => {
    const database = new Database(temporaryFile());
    try {
      const broken = [
        { version: 1, name: "one", sql: "CREATE TABLE one (id TEXT)" },
        { version: 2, name: "two", sql: "CREATE TABLE two (id TEXT); INSERT INTO missing VALUES (1)" },
      ];
      expect(() => migrate(database, broken)).toThrow(/no such table: missing/);
      expect(database.pragma("user_version", { simple: true })).toBe(1);
      expect(database.prepare("SELECT name FROM sqlite_master WHERE name = 'two'").get()).toBeUndefined();
    } finally {
      database.close();
    }
  });

  it("refuses a file written by a newer schema", () => {
    const path = temporaryFile();
    const database = new Database(path);
    database.pragma(`user_version = ${MIGRATIONS.length + 1}`);
    database.close();
    expect(() => openSqliteStores(path)).toThrow(/newer than this code knows/);
  });

  it("opens in WAL mode with NORMAL sync, a busy timeout and foreign keys", () => {
    const path = temporaryFile();
    const { database } = open(path);
    expect(database.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(database.pragma("synchronous", { simple: true })).toBe(1);
    expect(database.pragma("busy_timeout", { simple: true })).toBe(5_000);
    expect(database.pragma("foreign_keys", { simple: true })).toBe(1);
    const custom = openSqliteStores(path, { busyTimeoutMs: 250 });
    opened.push(custom);
    expect(custom.database.pragma("busy_timeout", { simple: true })).toBe(250);
  });

  it("stores envelopes and inputs as JSON text", async () => {
    const stores = open(temporaryFile());
    await stores.idempotency.claim(claimOf("claim-1"));
    await stores.idempotency.complete({
      tenantId: "tenant-a",
      key: "key-1",
      claimId: "claim-1",
      envelope: { ok: true, content: "sent" },
      now: 2_000,
      retentionMs: 1_000,
    });
    const row = stores.database.prepare("SELECT typeof(envelope) AS type, envelope FROM idempotency").get();
    expect(row).toEqual({ type: "text", envelope: '{"ok":true,"content":"sent"}' });
  });

  it("gives exactly one claim across two connections to one file", async () => {
    const path = temporaryFile();
    const connections = [open(path), open(path)];
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        connections[index % 2]!.idempotency.claim(claimOf(`claim-${index}`)),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === "claimed")).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome.kind === "in_progress")).toHaveLength(49);
  });
});

const approvalOf = (id: string): NewApproval => ({
  tenantId: "tenant-a",
  id,
  toolName: "mail.send",
  toolVersion: "1.0.0",
  effect: "external-write",
  definitionHash: "sha256:abc",
  input: { to: ["a@example.com"] },
  description: "Send a mail to a@example.com",
  requestedBy: "agent:alice",
  runId: "run-1",
  toolCallId: `call-${id}`,
  idempotencyKey: `key-${id}`,
  fingerprint: `fp-${id}`,
  createdAt: 1_000,
  expiresAt: 61_000,
});

/**
 * Every store method body is synchronous, so `Promise.all` on one thread runs the calls one after another and
 * cannot race them. These tests give each thread its own connection to one file and start every call of a round
 * in all threads at once, so a read and a write that are not one locked step get interleaved.
 */
describe("sqlite races between threads", () => {
  const rounds = 100;
  let threads: Worker[] = [];
  beforeAll(async () => {
    threads = await startRaceThreads(4);
  });
  afterAll(async () => {
    await Promise.all(threads.map((thread) => thread.terminate()));
  });

  it("gives exactly one claim per key when threads race on one file", async () => {
    const path = temporaryFile();
    open(path).close(); // migrate once up front, so the race is about claims
    const keys = 300;
    const plans = Array.from({ length: 4 }, (_, thread) =>
      Array.from({ length: keys }, (_, key): Call => claimCall(claimOf(`t${thread}`, `key-${key}`))),
    );
    const results = await raceInThreads<ClaimOutcome>(threads, path, plans);
    for (let key = 0; key < keys; key++) {
      const winners = results.filter((outcomes) => outcomes[key]?.kind === "claimed");
      expect(winners, `key-${key}`).toHaveLength(1);
    }
    expect(results.flat().every(({ kind }) => kind === "claimed" || kind === "in_progress")).toBe(true);
  });

  it("parks one approval per key however many threads park its duplicates at once", async () => {
    const path = temporaryFile();
    const stores = open(path);
    const keys = Array.from({ length: rounds }, (_, index) => `key-park-${index}`);
    const plans = Array.from({ length: 4 }, (_, thread) =>
      keys.map(
        (key): Call => ({
          store: "approvals",
          method: "park",
          input: { ...approvalOf(`${key}-t${thread}`), idempotencyKey: key },
        }),
      ),
    );
    const results = await raceInThreads<{ created: boolean; record: { id: string } }>(threads, path, plans);
    for (const [index, key] of keys.entries()) {
      const outcomes = results.map((thread) => thread[index]!);
      expect(
        outcomes.filter((outcome) => outcome.created),
        key,
      ).toHaveLength(1);
      expect(new Set(outcomes.map((outcome) => outcome.record.id)).size, key).toBe(1);
    }
    expect(await stores.approvals.list({ tenantId: "tenant-a" })).toHaveLength(rounds);
  });

  it("lets exactly one of an approval and a denial win each approval", async () => {
    const path = temporaryFile();
    const stores = open(path);
    // Two threads overlap less often than four, so this race runs more rounds.
    const ids = Array.from({ length: rounds * 3 }, (_, index) => `approval-${index}`);
    for (const id of ids) await stores.approvals.create(approvalOf(id));
    const decisions = (["approved", "denied"] as const).map((decision) =>
      ids.map(
        (id): Call => ({
          store: "approvals",
          method: "decide",
          input: { tenantId: "tenant-a", id, decision, by: `human:${decision}`, at: 2_000 },
        }),
      ),
    );
    const [approving, denying] = await raceInThreads<DecideOutcome>(threads, path, decisions);
    for (const [index, id] of ids.entries()) {
      const outcomes = [approving![index]!, denying![index]!];
      const winners = outcomes.filter((outcome) => outcome.ok);
      expect(winners, id).toHaveLength(1);
      const winner = winners[0]!.record!;
      const stored = await stores.approvals.get({ tenantId: "tenant-a", id });
      expect(stored, id).toMatchObject({
        status: winner.status,
        decidedBy: winner.decidedBy,
        decidedAt: 2_000,
      });
      // The loser saw the winner's committed decision, not the pending row it would have read without the lock.
      expect(
        outcomes.find((outcome) => !outcome.ok),
        id,
      ).toEqual({
        ok: false,
        reason: "already_decided",
        record: stored,
      });
    }
  });

  it("lets exactly one thread take over each expired lease", async () => {
    const path = temporaryFile();
    const stores = open(path);
    const keys = Array.from({ length: rounds }, (_, index) => `lease-${index}`);
    // Each key is in progress under a lease that ran out at 31,000.
    for (const key of keys) await stores.idempotency.claim(claimOf("crashed", key));
    const plans = Array.from({ length: 4 }, (_, thread) =>
      keys.map((key): Call => claimCall({ ...claimOf(`t${thread}`, key), now: 100_000 })),
    );
    const results = await raceInThreads<ClaimOutcome>(threads, path, plans);
    for (const [index, key] of keys.entries()) {
      const outcomes = results.map((thread) => thread[index]!);
      const winners = outcomes.flatMap((outcome, thread) => (outcome.kind === "claimed" ? [thread] : []));
      expect(winners, key).toHaveLength(1);
      expect(outcomes[winners[0]!], key).toEqual({ kind: "claimed", reclaimed: true });
      const losers = outcomes.filter((outcome) => outcome.kind !== "claimed");
      expect(losers, key).toEqual(Array(3).fill({ kind: "in_progress", leaseUntil: 130_000 }));
      const stored = await stores.idempotency.get({ tenantId: "tenant-a", key });
      expect(stored, key).toMatchObject({
        status: "in_progress",
        claimId: `t${winners[0]}`,
        leaseUntil: 130_000,
      });
    }
  });

  it("marks each expired lease unknown once when it may not be taken over", async () => {
    const path = temporaryFile();
    const stores = open(path);
    const keys = Array.from({ length: rounds }, (_, index) => `lease-${index}`);
    for (const key of keys) await stores.idempotency.claim(claimOf("crashed", key));
    // Each thread's clock differs, so every thread reporting the same `since` shows that exactly one wrote.
    const plans = Array.from({ length: 4 }, (_, thread) =>
      keys.map(
        (key): Call =>
          claimCall({ ...claimOf(`t${thread}`, key), reclaimable: false, now: 100_000 + thread }),
      ),
    );
    const results = await raceInThreads<ClaimOutcome>(threads, path, plans);
    for (const [index, key] of keys.entries()) {
      const stored = await stores.idempotency.get({ tenantId: "tenant-a", key });
      expect(stored, key).toMatchObject({ status: "unknown", claimId: "crashed" });
      const outcomes = results.map((thread) => thread[index]);
      const evidence = { startedAt: 1_000, by: "agent:alice", holder: "host-a:1", lastHeartbeat: 1_000 };
      expect(outcomes, key).toEqual(Array(4).fill({ kind: "unknown", since: stored!.updatedAt, evidence }));
    }
  });

  it("lets exactly one thread finish each approved approval", async () => {
    const path = temporaryFile();
    const stores = open(path);
    const ids = Array.from({ length: rounds }, (_, index) => `approval-${index}`);
    for (const id of ids) {
      await stores.approvals.create(approvalOf(id));
      await stores.approvals.decide({
        tenantId: "tenant-a",
        id,
        decision: "approved",
        by: "human",
        at: 2_000,
      });
    }
    const finishOf = (thread: number, id: string): FinishInput => ({
      tenantId: "tenant-a",
      id,
      status: thread % 2 === 0 ? "executed" : "refused",
      result: { ok: true, content: `thread ${thread}` },
      at: 3_000 + thread,
    });
    const plans = Array.from({ length: 4 }, (_, thread) =>
      ids.map((id): Call => ({ store: "approvals", method: "finish", input: finishOf(thread, id) })),
    );
    const results = await raceInThreads<boolean>(threads, path, plans);
    for (const [index, id] of ids.entries()) {
      const winners = results.flatMap((thread, number) => (thread[index] ? [number] : []));
      expect(winners, id).toHaveLength(1);
      const { status, result, at } = finishOf(winners[0]!, id);
      const stored = await stores.approvals.get({ tenantId: "tenant-a", id });
      expect(stored, id).toMatchObject({ status, result, finishedAt: at, decidedBy: "human" });
    }
  });
});

/** One store call a race thread makes; plain data, so it can be posted to the thread. */
type Call =
  | { store: "idempotency"; method: "claim"; input: ClaimInput }
  | { store: "approvals"; method: "decide"; input: DecideInput }
  | { store: "approvals"; method: "finish"; input: FinishInput }
  | { store: "approvals"; method: "park"; input: NewApproval };

const claimCall = (input: ClaimInput): Call => ({ store: "idempotency", method: "claim", input });

/**
 * A race thread: it loads the TypeScript adapters through tsx (resolved from this file rather than the cwd) once,
 * then for each race it is sent opens its own connection and makes its calls, meeting the other threads at a
 * shared barrier before each one. gate: [threads at the barrier, barrier generation, a thread failed].
 */
const RACE_THREAD = `
  const { parentPort, workerData } = require("node:worker_threads");
  const load = require("node:module").createRequire(workerData.parent)("tsx/cjs/api").require;
  const { openSqliteStores } = load(workerData.index, workerData.parent);
  parentPort.on("message", async ({ path, plan, threads, gate: buffer }) => {
    const gate = new Int32Array(buffer);
    const barrier = () => {
      const generation = Atomics.load(gate, 1);
      if (Atomics.add(gate, 0, 1) === threads - 1) {
        Atomics.store(gate, 0, 0);
        Atomics.add(gate, 1, 1);
        Atomics.notify(gate, 1);
        return;
      }
      while (Atomics.load(gate, 1) === generation) {
        if (Atomics.load(gate, 2) !== 0) throw new Error("another race thread failed");
        Atomics.wait(gate, 1, generation, 50);
      }
    };
    let stores;
    let answer;
    try {
      stores = openSqliteStores(path);
      const outcomes = [];
      for (const call of plan) {
        barrier();
        outcomes.push(await stores[call.store][call.method](call.input));
      }
      stores.close(); // before answering, so the test's cleanup never removes a file still open here
      answer = { outcomes };
    } catch (error) {
      // Release the threads waiting at the barrier, so the race ends instead of hanging.
      Atomics.store(gate, 2, 1);
      Atomics.notify(gate, 1);
      if (stores?.database.open) stores.close();
      answer = { error: error instanceof Error ? error.stack : String(error) };
    }
    parentPort.postMessage(answer);
  });
  parentPort.postMessage({ ready: true });
`;

/** Starts `size` race threads and waits until each has loaded the adapters. */
async function startRaceThreads(size: number): Promise<Worker[]> {
  const parent = fileURLToPath(import.meta.url);
  const index = join(parent, "..", "index.ts");
  const workers = Array.from(
    { length: size },
    () => new Worker(RACE_THREAD, { eval: true, workerData: { parent, index } }),
  );
  try {
    await Promise.all(workers.map((worker) => answerOf(worker)));
    return workers;
  } catch (error) {
    await Promise.all(workers.map((worker) => worker.terminate()));
    throw error;
  }
}

/** The next message from a race thread, or its failure. */
function answerOf<T>(worker: Worker): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const settle = (outcome: () => void) => {
      worker.off("message", onMessage).off("error", onError).off("exit", onExit);
      outcome();
    };
    const onMessage = (message: { error?: string }) =>
      settle(() => (message.error === undefined ? resolve(message as T) : reject(new Error(message.error))));
    const onError = (error: Error) => settle(() => reject(error));
    const onExit = (code: number) => settle(() => reject(new Error(`race thread exited with ${code}`)));
    worker.on("message", onMessage).on("error", onError).on("exit", onExit);
  });
}

/**
 * Gives each plan to one of `threads`, each with its own connection to `path`, and returns each thread's
 * outcomes. Before every round all threads meet at the barrier, so call `i` of every plan starts at the same
 * moment (threads left to run freely drift apart and stop racing after a few calls). A read made outside the
 * write lock lets two threads both act on the same row; a deferred transaction fails with SQLITE_BUSY instead.
 */
async function raceInThreads<T>(threads: Worker[], path: string, plans: Call[][]): Promise<T[][]> {
  if (plans.length > threads.length) throw new Error(`only ${threads.length} race threads`);
  if (new Set(plans.map((plan) => plan.length)).size !== 1)
    throw new Error("every plan needs as many rounds");
  const gate = new Int32Array(new SharedArrayBuffer(12));
  const settled = await Promise.allSettled(
    plans.map((plan, thread) => {
      const answer = answerOf<{ outcomes: T[] }>(threads[thread]!);
      threads[thread]!.postMessage({ path, plan, threads: plans.length, gate: gate.buffer });
      return answer;
    }),
  );
  const failures = settled.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  // Report the thread that failed, not the ones it released from the barrier.
  const cause = failures.find((error) => !/another race thread failed/.test(String(error))) ?? failures[0];
  if (failures.length > 0) throw cause;
  return settled.map((result) => (result as PromiseFulfilledResult<{ outcomes: T[] }>).value.outcomes);
}
