/**
 * @module The four servers as bench/mcp.ts sees them: each can be probed and timed for a batch of calls.
 * In memory, a forked worker holds client and server (in-memory-worker.ts); over stdio, the client is
 * in this process and the server is its child.
 */
import { type ChildProcess, fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { type Connection, probe, type Timing, timeBatch } from "./connections.js";
import type { WorkerReply, WorkerRequest } from "./in-memory-messages.js";

const REPLY_TIMEOUT_MS = 30_000;
const STOP_TIMEOUT_MS = 5_000;

export interface Side {
  /** The echo tool's input schema as listed, after one checked call. */
  probe(): Promise<string>;
  /**
   * Times a batch of `calls` made `concurrency` at a time. The CPU time is the client's process's: in
   * memory, client and server together; over stdio, the client's alone.
   */
  batch(calls: number, concurrency: number): Promise<Timing>;
  close(): Promise<void>;
}

export function stdioSide(connection: Connection): Side {
  return {
    probe: () => probe(connection.client),
    batch: (calls, concurrency) => timeBatch(connection.client, calls, concurrency),
    close: () => connection.close(),
  };
}

/**
 * A worker process for one in-memory case, through tsx; with TOOLREG_BENCH_CPU_PROF=<folder> it writes a
 * V8 CPU profile there as it exits (of client and server together: they share the process).
 */
export async function inMemorySide(server: "bare" | "toolreg"): Promise<Side> {
  const profileDir = process.env.TOOLREG_BENCH_CPU_PROF;
  const child = fork(fileURLToPath(new URL("./in-memory-worker.ts", import.meta.url)), [server], {
    execArgv: [
      "--import",
      import.meta.resolve("tsx"),
      ...(profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : []),
    ],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const ask = async (request: WorkerRequest | undefined): Promise<WorkerReply> => {
    const reply = nextReply(child, `${server} in memory`);
    if (request) child.send(request);
    const answered = await reply;
    if (answered.type === "error") throw new Error(`${server} in memory: ${answered.message}`);
    return answered;
  };
  try {
    await ask(undefined);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    async probe() {
      const reply = await ask({ type: "probe" });
      if (reply.type !== "probe") throw new Error(`${server} in memory: answered ${reply.type} to probe`);
      return reply.schema;
    },
    async batch(calls, concurrency) {
      const reply = await ask({ type: "batch", calls, concurrency });
      if (reply.type !== "batch") throw new Error(`${server} in memory: answered ${reply.type} to batch`);
      return reply.timing;
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, "exit");
      child.send({ type: "stop" } satisfies WorkerRequest);
      const timer = setTimeout(() => child.kill("SIGKILL"), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
  };
}

function nextReply(child: ChildProcess, name: string): Promise<WorkerReply> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => settle(new Error(`${name}: no answer within ${REPLY_TIMEOUT_MS} ms`)),
      REPLY_TIMEOUT_MS,
    );
    const onMessage = (reply: WorkerReply) => settle(undefined, reply);
    const onExit = (code: number | null) => settle(new Error(`${name}: worker exited (code ${code})`));
    const settle = (error?: Error, reply?: WorkerReply) => {
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      if (error) reject(error);
      else resolve(reply!);
    };
    child.once("message", onMessage);
    child.once("exit", onExit);
  });
}
