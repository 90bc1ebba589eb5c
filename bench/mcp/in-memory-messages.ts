/** @module What bench/mcp.ts and an in-memory worker (in-memory-worker.ts) say to each other over IPC. */
import type { Timing } from "./connections.js";

export type WorkerRequest =
  | { type: "probe" }
  | { type: "batch"; calls: number; concurrency: number }
  | { type: "stop" };

export type WorkerReply =
  | { type: "ready" }
  | { type: "probe"; schema: string }
  | { type: "batch"; timing: Timing }
  | { type: "error"; message: string };
