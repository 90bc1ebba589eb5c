/** @module Two threads, each with its own connection, redeem the same login tokens at the same moment. */
import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { afterEach, expect, it } from "vitest";
import { openSqliteAuthStore } from "./index.js";

/**
 * better-sqlite3 is synchronous, so two connections in one thread only ever take turns; a real race needs
 * threads. Each thread loads the TypeScript store through tsx and, before every token, waits at a barrier
 * (gate: [threads arrived, round]) so both redeem it at once. Its answer is a session id or null per token.
 */
const RACER = `
  const { parentPort, workerData } = require("node:worker_threads");
  const { path, tokens, threads, tsxApi, index } = workerData;
  const { openSqliteAuthStore } = require(tsxApi).require(index, index);
  const gate = new Int32Array(workerData.gate);
  const meet = () => {
    const round = Atomics.load(gate, 1);
    if (Atomics.add(gate, 0, 1) === threads - 1) {
      Atomics.store(gate, 0, 0);
      Atomics.add(gate, 1, 1);
      Atomics.notify(gate, 1);
      return;
    }
    // A thread that failed never arrives; time out rather than hang the test.
    if (Atomics.wait(gate, 1, round, 10000) === "timed-out") throw new Error("the other racer never arrived");
  };
  (async () => {
    const store = openSqliteAuthStore(path);
    try {
      const sessionIds = [];
      for (const token of tokens) {
        meet();
        sessionIds.push((await store.redeemLoginToken(token))?.sessionId ?? null);
      }
      parentPort.postMessage(sessionIds);
    } finally {
      await store.close();
    }
  })(); // a rejection ends the thread with an error event, which fails the test
`;

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

async function race(path: string, tokens: string[], threads: number): Promise<(string | null)[][]> {
  const here = fileURLToPath(import.meta.url);
  const workerData = {
    path,
    tokens,
    threads,
    tsxApi: createRequire(here).resolve("tsx/cjs/api"),
    index: join(here, "..", "index.ts"),
    gate: new SharedArrayBuffer(8),
  };
  const racers = Array.from({ length: threads }, () => new Worker(RACER, { eval: true, workerData }));
  try {
    // `once` rejects when a racer emits an error, so a failing thread fails the test with its own stack.
    const answers = await Promise.all(racers.map((racer) => once(racer, "message")));
    return answers.map(([sessionIds]) => sessionIds as (string | null)[]);
  } finally {
    await Promise.all(racers.map((racer) => racer.terminate()));
  }
}

it("lets exactly one of two racing connections redeem each login token", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-auth-race-"));
  directories.push(directory);
  const path = join(directory, "server.db");
  const store = openSqliteAuthStore(path);
  try {
    const { record } = await store.createKey({ tenantId: "acme", principalId: "ops", operator: true });
    const tokens = await Promise.all(Array.from({ length: 200 }, () => store.createLoginToken(record.id)));
    const [first, second] = await race(path, tokens, 2);
    for (const [index, token] of tokens.entries()) {
      const winners = [first![index], second![index]].filter((sessionId) => sessionId !== null);
      expect(winners, token).toHaveLength(1);
      expect((await store.session(winners[0]!))?.caller.keyId, token).toBe(record.id);
    }
  } finally {
    await store.close();
  }
});
