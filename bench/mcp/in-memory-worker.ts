/**
 * @module One in-memory case, client and server, in a process of its own (forked by bench/mcp.ts through
 * tsx; argument `bare` or `toolreg`). A process each, because what one server switches on process-wide
 * (an AsyncLocalStorage's promise hooks, a heap to collect, the JIT's feedback on shared SDK code) would
 * otherwise tax the other's calls too. Answers one request at a time; exits when told or orphaned.
 */
import { bareInMemory, probe, timeBatch, toolregInMemory } from "./connections.js";
import type { WorkerReply, WorkerRequest } from "./in-memory-messages.js";

const side = process.argv[2];
if (side !== "bare" && side !== "toolreg") throw new Error(`in-memory-worker: bare or toolreg, not ${side}`);
const send = (reply: WorkerReply) => process.send?.(reply);
const connection = await (side === "bare" ? bareInMemory() : toolregInMemory());

async function answer(request: WorkerRequest): Promise<WorkerReply> {
  if (request.type === "probe") return { type: "probe", schema: await probe(connection.client) };
  if (request.type === "batch") {
    return {
      type: "batch",
      timing: await timeBatch(connection.client, request.calls, request.concurrency),
    };
  }
  await connection.close();
  process.exit(0);
}

process.on("disconnect", () => process.exit(1));
process.on("message", (request: WorkerRequest) => {
  answer(request).then(send, (error: unknown) =>
    send({ type: "error", message: error instanceof Error ? error.message : String(error) }),
  );
});
send({ type: "ready" });
