/**
 * @module `evaluateInWorker`: runs a JMESPath search in a worker thread with a heap cap and a wall-clock
 * limit, so a query that multiplies its data cannot stall or exhaust the host.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export type WorkerOutcome =
  | { kind: "value"; value: unknown }
  | { kind: "error"; name: string; message: string }
  | { kind: "timeout" }
  | { kind: "memory" }
  | { kind: "aborted" };

export interface WorkerLimits {
  timeoutMs: number;
  heapMb: number;
}

// JMESPath cannot loop, but each `[@,@] | []` doubles the data, so thirty of them take a minute and
// gigabytes in the host's own thread; isolation is what bounds the cost, not the language.
// The source is plain CommonJS so the worker needs no TypeScript loader, in tests or in the build.
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const { search } = require(workerData.jmespath);
let message;
try {
  message = { kind: "value", value: search(JSON.parse(workerData.json), workerData.expression) };
} catch (error) {
  message = { kind: "error", name: String(error && error.name), message: String(error && error.message) };
}
parentPort.postMessage(message);
`;

const jmespathEntry = createRequire(import.meta.url).resolve("@jmespath-community/jmespath");

/** Evaluates `expression` over the JSON `json` (already validated) in a fresh, capped worker. */
export function evaluateInWorker(
  json: string,
  expression: string,
  limits: WorkerLimits,
  signal?: AbortSignal,
): Promise<WorkerOutcome> {
  if (signal?.aborted) return Promise.resolve({ kind: "aborted" });
  return new Promise((resolve) => {
    const worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { jmespath: jmespathEntry, json, expression },
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
    });
    let settled = false;
    const finish = (outcome: WorkerOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      void worker.terminate();
      resolve(outcome);
    };
    const onAbort = () => finish({ kind: "aborted" });
    const timer = setTimeout(() => finish({ kind: "timeout" }), limits.timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    worker.on("message", (message: WorkerOutcome) => finish(message));
    worker.on("error", (error: Error & { code?: string }) =>
      finish(
        error.code === "ERR_WORKER_OUT_OF_MEMORY"
          ? { kind: "memory" }
          : { kind: "error", name: error.name, message: error.message },
      ),
    );
    worker.on("exit", () => finish({ kind: "error", name: "Error", message: "the query worker stopped" }));
  });
}
