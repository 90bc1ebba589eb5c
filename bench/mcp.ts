/**
 * @module MCP `tools/call` round trips per second: toolreg's server beside a bare SDK server with the same
 * tool (bench/mcp/bare-server.js, bench/mcp/catalogue.js), over the SDK's in-memory transport and over
 * stdio, all four in one run. An SDK `Client` makes the calls, one at a time (or
 * TOOLREG_BENCH_MCP_CONCURRENCY at once, awaited together).
 *
 * In memory, client and server share a worker process, one worker per server
 * (bench/mcp/in-memory-worker.ts), so that what one server switches on process-wide cannot tax the other.
 * Over stdio, the clients are in this process and each server is a child under plain Node:
 * `node bench/mcp/bare-stdio.js` and `node dist/cli/main.js --db <tmp>/x.db --registry
 * bench/mcp/catalogue.js mcp`. toolreg in memory runs over memory stores; the CLI, as shipped, over its
 * SQLite file (one audit row a call).
 *
 * The four are timed in batches, interleaved in alternating order after warm-up rounds, so machine noise
 * hits all alike; each rate is 1 / the median wall-clock time a call. In memory, the median CPU time a
 * call (client and server: the worker's process) is given too, a cross-check that other load on the
 * machine moves less. Prints a table, or one JSON object with `--json`.
 *
 * TOOLREG_BENCH_MCP_ROUNDS (default 31) shortens or lengthens the run; TOOLREG_BENCH_CPU_PROF=<folder>
 * makes all four servers' processes write a V8 CPU profile there as they exit (in memory, the client's
 * work is in the same profile).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { positiveInteger } from "./env-integer.js";
import { bareStdio, toolregStdio } from "./mcp/connections.js";
import { measureAlternating } from "./mcp/measure-alternating.js";
import { inMemorySide, type Side, stdioSide } from "./mcp/sides.js";

const RATIO_TARGET = 0.8;
/** Calls per timed batch: some 15 to 40 ms each. */
const IN_MEMORY_BATCH = 500;
const STDIO_BATCH = 200;
const WARMUP_ROUNDS = 5;

const concurrency = positiveInteger("TOOLREG_BENCH_MCP_CONCURRENCY", 1);
const rounds = positiveInteger("TOOLREG_BENCH_MCP_ROUNDS", 31);

const started = Date.now();
const directory = mkdtempSync(join(tmpdir(), "toolreg-bench-mcp-"));
const sides: Side[] = [];
const open = async (opening: Promise<Side>) => {
  const side = await opening;
  sides.push(side);
  return side;
};
try {
  const [bareInMemory, toolregInMemory, bareOverStdio, toolregOverStdio] = [
    await open(inMemorySide("bare")),
    await open(inMemorySide("toolreg")),
    await open(bareStdio().then(stdioSide)),
    await open(toolregStdio(join(directory, "x.db")).then(stdioSide)),
  ];
  // One checked call each, and the same input schema listed by all four, before anything is timed.
  const schemas = new Map<string, string>();
  for (const [name, side] of Object.entries({
    "bare in memory": bareInMemory,
    "toolreg in memory": toolregInMemory,
    "bare over stdio": bareOverStdio,
    "toolreg over stdio": toolregOverStdio,
  })) {
    schemas.set(
      name,
      await side.probe().catch((error: Error) => Promise.reject(new Error(`${name}: ${error.message}`))),
    );
  }
  if (new Set(schemas.values()).size > 1) {
    throw new Error(
      `the input schemas listed differ:\n${[...schemas].map((entry) => entry.join(": ")).join("\n")}`,
    );
  }

  const medians = await measureAlternating(
    {
      bareInMemory: () => bareInMemory.batch(IN_MEMORY_BATCH, concurrency),
      toolregInMemory: () => toolregInMemory.batch(IN_MEMORY_BATCH, concurrency),
      bareStdio: () => bareOverStdio.batch(STDIO_BATCH, concurrency),
      toolregStdio: () => toolregOverStdio.batch(STDIO_BATCH, concurrency),
    },
    { rounds, warmupRounds: WARMUP_ROUNDS },
  );
  const cps = (name: keyof typeof medians) => Math.round(1e9 / medians[name].wallNs);
  const ratio = (toolreg: number, bare: number) => Math.round((toolreg / bare) * 1_000) / 1_000;
  // In memory, the worker's CPU time a call: client and server, whatever else the machine is doing.
  const cpuMicros = (name: keyof typeof medians) => Math.round(medians[name].cpuNs / 10) / 100;
  const bareInMemoryCpu = cpuMicros("bareInMemory");
  const toolregInMemoryCpu = cpuMicros("toolregInMemory");
  const bareInMemoryCps = cps("bareInMemory");
  const toolregInMemoryCps = cps("toolregInMemory");
  const bareStdioCps = cps("bareStdio");
  const toolregStdioCps = cps("toolregStdio");
  const inmemoryRatio = ratio(toolregInMemoryCps, bareInMemoryCps);
  const stdioRatio = ratio(toolregStdioCps, bareStdioCps);
  // Exactly the issue's keys, which `--json` prints; the table says the rest too.
  const reported = {
    bare_inmemory_cps: bareInMemoryCps,
    toolreg_inmemory_cps: toolregInMemoryCps,
    bare_stdio_cps: bareStdioCps,
    toolreg_stdio_cps: toolregStdioCps,
    inmemory_ratio: inmemoryRatio,
    stdio_ratio: stdioRatio,
  };
  const figures = {
    ...reported,
    inmemory_ratio_met: inmemoryRatio >= RATIO_TARGET,
    stdio_ratio_met: stdioRatio >= RATIO_TARGET,
    bare_inmemory_cpu_us: bareInMemoryCpu,
    toolreg_inmemory_cpu_us: toolregInMemoryCpu,
    inmemory_cpu_ratio: ratio(bareInMemoryCpu, toolregInMemoryCpu),
    concurrency,
    rounds,
    cores: availableParallelism(),
    seconds: Math.round((Date.now() - started) / 100) / 10,
  };

  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(reported));
  } else {
    const mark = (met: boolean) => (met ? "met" : "MISSED");
    console.log(
      `MCP tools/call round trips, ${concurrency} in flight: median of ${rounds} rounds ` +
        `(${IN_MEMORY_BATCH} calls a batch in memory, ${STDIO_BATCH} over stdio) ` +
        `after ${WARMUP_ROUNDS} warm-up rounds; ` +
        `${figures.cores} cores, ${figures.seconds} s`,
    );
    console.log(
      `${"transport".padEnd(11)}${"bare calls/s".padStart(14)}${"toolreg calls/s".padStart(17)}` +
        `${"toolreg/bare".padStart(14)}  target ≥ ${RATIO_TARGET * 100} %`,
    );
    const row = (transport: string, bare: number, toolreg: number, value: number) =>
      console.log(
        `${transport.padEnd(11)}${String(bare).padStart(14)}${String(toolreg).padStart(17)}` +
          `${`${(value * 100).toFixed(1)} %`.padStart(14)}  ${mark(value >= RATIO_TARGET)}`,
      );
    row("in-memory", bareInMemoryCps, toolregInMemoryCps, inmemoryRatio);
    row("stdio", bareStdioCps, toolregStdioCps, stdioRatio);
    console.log(
      `in memory, CPU a call (client and server): bare ${bareInMemoryCpu} µs, ` +
        `toolreg ${toolregInMemoryCpu} µs (${(figures.inmemory_cpu_ratio * 100).toFixed(1)} %; ` +
        "other load on the machine moves this less than the rates)",
    );
    console.log("over stdio, toolreg is the CLI as shipped: its seam writes one audit row a call to SQLite");
  }
} finally {
  await Promise.all(sides.map((side) => side.close()));
  rmSync(directory, { recursive: true, force: true });
}
