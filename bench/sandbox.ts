/**
 * Start-to-exit time of `true` in the bubblewrap sandbox over 50 runs, with a cgroup per command and without
 * (per-process limits only), beside a bare `spawn("true")` and the cgroup's making and removal alone; all in
 * the same run, interleaved so machine noise hits each alike. Prints a table, or one JSON object with `--json`.
 */
import { spawn } from "node:child_process";
import { detectCgroups } from "../src/sandbox/detect-cgroups.js";
import { BubblewrapSandbox, detectSandbox } from "../src/sandbox/index.js";

const RUNS = 50;
const WARMUP = 5;
const LIMITS = { memoryBytes: 256 * 1024 * 1024, pidsLimit: 256 };

const withCgroup = detectSandbox();
if (!withCgroup) {
  console.error("bench:sandbox: /usr/bin/bwrap is missing or cannot start a sandbox here");
  process.exit(1);
}
const hierarchy = detectCgroups({ runAs: withCgroup.hostId }).hierarchy;
if (!hierarchy) {
  console.error(
    `bench:sandbox: no command cgroups here (${withCgroup.enforcement.reason}); nothing to compare`,
  );
  process.exit(1);
}
const withoutCgroup = new BubblewrapSandbox({ cgroupRoot: false });

async function timeSandbox(sandbox: BubblewrapSandbox): Promise<number> {
  const started = performance.now();
  const result = await sandbox.run({ command: "true", timeoutMs: 10_000, maxOutputBytes: 4096, ...LIMITS });
  if (result.exitCode !== 0) throw new Error(`sandboxed true failed: ${JSON.stringify(result)}`);
  return performance.now() - started;
}

/** Making the cgroup, writing its limits, and emptying, reading and removing it: the setup alone. */
async function timeCgroup(): Promise<number> {
  const started = performance.now();
  await hierarchy?.create(LIMITS).close();
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

const samples = {
  cgroup: [] as number[],
  noCgroup: [] as number[],
  setup: [] as number[],
  spawn: [] as number[],
};
for (let i = 0; i < WARMUP + RUNS; i++) {
  const round = {
    cgroup: await timeSandbox(withCgroup),
    noCgroup: await timeSandbox(withoutCgroup),
    setup: await timeCgroup(),
    spawn: await timeSpawn(),
  };
  if (i < WARMUP) continue;
  for (const [name, ms] of Object.entries(round)) samples[name as keyof typeof samples].push(ms);
}

const figures = {
  cgroup: hierarchy.version,
  sandbox_cgroup_p50_ms: percentile(samples.cgroup, 50),
  sandbox_cgroup_p95_ms: percentile(samples.cgroup, 95),
  sandbox_no_cgroup_p50_ms: percentile(samples.noCgroup, 50),
  sandbox_no_cgroup_p95_ms: percentile(samples.noCgroup, 95),
  cgroup_overhead_p50_ms:
    Math.round((percentile(samples.cgroup, 50) - percentile(samples.noCgroup, 50)) * 100) / 100,
  cgroup_setup_alone_p50_ms: percentile(samples.setup, 50),
  cgroup_setup_alone_p95_ms: percentile(samples.setup, 95),
  spawn_p50_ms: percentile(samples.spawn, 50),
  spawn_p95_ms: percentile(samples.spawn, 95),
};
if (process.argv.includes("--json")) {
  console.log(JSON.stringify(figures));
} else {
  const row = (label: string, p50: number, p95: number) =>
    console.log(`${label.padEnd(38)}${String(p50).padStart(10)}${String(p95).padStart(10)}`);
  console.log(`${`\`true\`, ${RUNS} runs each`.padEnd(38)}${"p50 ms".padStart(10)}${"p95 ms".padStart(10)}`);
  row(
    `bubblewrap, cgroup ${hierarchy.version} per command`,
    figures.sandbox_cgroup_p50_ms,
    figures.sandbox_cgroup_p95_ms,
  );
  row(
    "bubblewrap, per-process limits only",
    figures.sandbox_no_cgroup_p50_ms,
    figures.sandbox_no_cgroup_p95_ms,
  );
  row("cgroup make + remove alone", figures.cgroup_setup_alone_p50_ms, figures.cgroup_setup_alone_p95_ms);
  row("bare spawn", figures.spawn_p50_ms, figures.spawn_p95_ms);
  console.log(`cgroup overhead per command (p50 difference): ${figures.cgroup_overhead_p50_ms} ms`);
}
