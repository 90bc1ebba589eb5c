/**
 * Start-to-exit time of `true` in the bubblewrap sandbox over 50 runs, beside a bare `spawn("true")` in
 * the same run, interleaved so machine noise hits both alike. Prints a table, or one JSON object with `--json`.
 */
import { spawn } from "node:child_process";
import { detectSandbox } from "../src/sandbox/index.js";

const RUNS = 50;
const WARMUP = 5;

const sandbox = detectSandbox();
if (!sandbox) {
  console.error("bench:sandbox: /usr/bin/bwrap is missing or cannot start a sandbox here");
  process.exit(1);
}

async function timeSandbox(): Promise<number> {
  const started = performance.now();
  const result = await sandbox?.run({
    command: "true",
    timeoutMs: 10_000,
    maxOutputBytes: 4096,
    memoryBytes: 256 * 1024 * 1024,
  });
  if (result?.exitCode !== 0) throw new Error(`sandboxed true failed: ${JSON.stringify(result)}`);
  return performance.now() - started;
}

function timeSpawn(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn("true", { stdio: "ignore" });
    child.once("error", reject);
    child.once("exit", () => resolve(performance.now() - started));
  });
}

function percentile(samples: readonly number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return Math.round((sorted[Math.max(0, index)] ?? Number.NaN) * 100) / 100;
}

const sandboxed: number[] = [];
const bare: number[] = [];
for (let i = 0; i < WARMUP + RUNS; i++) {
  const inSandbox = await timeSandbox();
  const plain = await timeSpawn();
  if (i >= WARMUP) {
    sandboxed.push(inSandbox);
    bare.push(plain);
  }
}

const figures = {
  sandbox_p50_ms: percentile(sandboxed, 50),
  sandbox_p95_ms: percentile(sandboxed, 95),
  spawn_p50_ms: percentile(bare, 50),
  spawn_p95_ms: percentile(bare, 95),
};
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(figures));
} else {
  console.log(`\`true\`, ${RUNS} runs each    p50 ms    p95 ms`);
  console.log(
    `bubblewrap sandbox  ${String(figures.sandbox_p50_ms).padStart(10)}${String(figures.sandbox_p95_ms).padStart(10)}`,
  );
  console.log(
    `bare spawn          ${String(figures.spawn_p50_ms).padStart(10)}${String(figures.spawn_p95_ms).padStart(10)}`,
  );
}
