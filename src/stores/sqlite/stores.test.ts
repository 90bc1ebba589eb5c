/** @module The SQLite adapters against the store conformance suite, plus what only a shared file can get wrong. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { runStoreConformance } from "../../../test/conformance/stores.js";
import type { ClaimInput } from "../types.js";
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
    expect(tables).toEqual(["approvals", "audit", "idempotency"]);
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

  it("gives exactly one claim per key when threads race on one file", async () => {
    const path = temporaryFile();
    open(path).close(); // migrate once up front, so the race is about claims
    const keys = 300;
    const results = await raceInThreads(path, 4, keys);
    for (let key = 0; key < keys; key++) {
      const winners = results.filter((kinds) => kinds[key] === "claimed");
      expect(winners, `key-${key}`).toHaveLength(1);
    }
    expect(results.flat().every((kind) => kind === "claimed" || kind === "in_progress")).toBe(true);
  });
});

/**
 * Runs `threads` worker threads, each with its own connection, that wait at a shared barrier and then claim
 * the same keys in the same order. A claim that read outside its write lock would let two threads win a key;
 * a deferred transaction would fail with SQLITE_BUSY instead of waiting.
 */
async function raceInThreads(path: string, threads: number, keys: number): Promise<string[][]> {
  // The worker loads the TypeScript adapter through tsx, resolved from this file rather than the cwd.
  const source = `
    const { parentPort, workerData } = require("node:worker_threads");
    const load = require("node:module").createRequire(workerData.parent)("tsx/cjs/api").require;
    const { openSqliteStores } = load(workerData.index, workerData.parent);
    const stores = openSqliteStores(workerData.path);
    const gate = new Int32Array(workerData.gate);
    Atomics.add(gate, 1, 1);
    Atomics.notify(gate, 1);
    Atomics.wait(gate, 0, 0);
    (async () => {
      const kinds = [];
      for (let key = 0; key < workerData.keys; key++) {
        const outcome = await stores.idempotency.claim({ ...workerData.claim, key: "key-" + key, claimId: "t" + workerData.thread });
        kinds.push(outcome.kind);
      }
      stores.close();
      parentPort.postMessage(kinds);
    })(); // a rejection here is unhandled, which ends the worker with an "error" event
  `;
  const gate = new Int32Array(new SharedArrayBuffer(8));
  const parent = fileURLToPath(import.meta.url);
  const index = join(parent, "..", "index.ts");
  const workers = Array.from(
    { length: threads },
    (_, thread) =>
      new Worker(source, {
        eval: true,
        workerData: { parent, index, path, keys, thread, gate: gate.buffer, claim: claimOf("") },
      }),
  );
  const results = workers.map(
    (worker) =>
      new Promise<string[]>((resolve, reject) => {
        worker.once("message", resolve);
        worker.once("error", reject);
        worker.once("exit", (code) => reject(new Error(`worker exited with ${code} before answering`)));
      }),
  );
  try {
    const ready = Promise.race([
      (async () => {
        while (Atomics.load(gate, 1) < threads) await new Promise((resolve) => setTimeout(resolve, 5));
      })(),
      // A worker that fails while loading never reaches the gate: surface its error instead of waiting forever.
      Promise.all(results),
    ]);
    await ready;
    Atomics.store(gate, 0, 1);
    Atomics.notify(gate, 0);
    return await Promise.all(results);
  } finally {
    await Promise.all(workers.map((worker) => worker.terminate()));
  }
}
