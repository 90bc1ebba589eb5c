/**
 * @module The four servers as bench/mcp.ts sees them: each can be probed and timed for a batch of calls.
 * In memory, a forked worker holds client and server (in-memory-worker.ts); over stdio, the client is
 * in this process and the server is its child.
 */
import { fileURLToPath } from "node:url";
import { forkBenchChild, nextChildMessage, stopChild } from "../forked-child.js";
import { type Connection, probe, type Timing, timeBatch } from "./connections.js";
import type { WorkerReply, WorkerRequest } from "./in-memory-messages.js";

const REPLY_TIMEOUT_MS = 30_000;

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
  const child = forkBenchChild(fileURLToPath(new URL("./in-memory-worker.ts", import.meta.url)), [server]);
  const ask = async (request: WorkerRequest | undefined): Promise<WorkerReply> => {
    const reply = nextChildMessage(
      child,
      (_message): _message is WorkerReply => true,
      REPLY_TIMEOUT_MS,
      `an answer from ${server} in memory`,
    );
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
    close: () => stopChild(child, { type: "stop" } satisfies WorkerRequest),
  };
}
