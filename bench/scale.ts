/**
 * @module Does adding `toolreg serve` instances on one PostgreSQL store add throughput? Invokes per second
 * and p99 latency of a read tool (count_read) and an external write (count_write, a fresh Idempotency-Key
 * each call) against one instance on SQLite, one on PostgreSQL and three on PostgreSQL, in one run. The
 * instances are real processes (`node dist/cli/main.js --db <store> --registry
 * test/fixtures/counting/catalogue.mjs serve --port 0`), each configuration on a fresh store of its own (a
 * SQLite file, or a PostgreSQL schema dropped at the end). The load comes from this process: batches of a
 * fixed number of calls at a fixed concurrency, round-robin over a configuration's instances, the
 * configurations interleaved round by round after unrecorded warm-up rounds. The load generator shares the
 * machine's cores with the servers and the database, so the figures say how many cores there were and how
 * busy they were. Traffic goes to 127.0.0.1 only. Any error or refused call fails the run. Prints a table,
 * or one JSON object with `--json`.
 *
 * TOOLREG_BENCH_SCALE_ROUNDS (default 7 timed rounds), TOOLREG_BENCH_SCALE_READS (default 2000 a round),
 * TOOLREG_BENCH_SCALE_WRITES (default 600 a round) and TOOLREG_BENCH_SCALE_CONCURRENCY (default 32) size
 * the load of each configuration.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { positiveInteger } from "./env-integer.js";
import { type Deployment, startDeployment } from "./scale/deployment.js";
import {
  type Batch,
  InstancePools,
  type Invoke,
  type LoadFigures,
  type LoadShape,
  summarise,
} from "./scale/fixed-load.js";

const POSTGRES = "postgres://postgres@127.0.0.1:5432/test";
const READ_RATIO_TARGET = 1.3;
const WARMUP_ROUNDS = 3;
const READ: Invoke = { tool: "count_read", input: { label: "bench" }, idempotent: false };
const WRITE: Invoke = { tool: "count_write", input: { label: "bench" }, idempotent: true };

interface Configuration {
  name: "sqlite" | "pg1" | "pg3";
  label: string;
  instances: number;
  postgres: boolean;
}

const CONFIGURATIONS: readonly Configuration[] = [
  { name: "sqlite", label: "1 instance, SQLite", instances: 1, postgres: false },
  { name: "pg1", label: "1 instance, PostgreSQL", instances: 1, postgres: true },
  { name: "pg3", label: "3 instances, PostgreSQL", instances: 3, postgres: true },
];

interface Measured {
  configuration: Configuration;
  read: LoadFigures;
  write: LoadFigures;
}

interface Shapes {
  read: LoadShape;
  write: LoadShape;
}

/** A configuration's instances, running, and what their timed batches measured so far. */
interface Running {
  configuration: Configuration;
  deployment: Deployment;
  pools: InstancePools;
  read: Batch[];
  write: Batch[];
}

const schemaOf = (configuration: Configuration) => `bench_scale_${process.pid}_${configuration.name}`;

async function start(configuration: Configuration, directory: string, concurrency: number): Promise<Running> {
  const store = configuration.postgres
    ? `${POSTGRES}?schema=${schemaOf(configuration)}`
    : join(directory, `${configuration.name}.db`);
  const deployment = await startDeployment(store, configuration.instances, directory);
  return {
    configuration,
    deployment,
    pools: new InstancePools(deployment.urls, concurrency),
    read: [],
    write: [],
  };
}

/**
 * Every configuration's read batch, then its write batch, round after round, after unrecorded warm-up
 * rounds (the JIT of every instance, the connection pools, the caches). Each round starts with the next
 * configuration, so outside load on the shared machine, and what one configuration's writes leave the
 * database to do, fall on all alike.
 */
async function measure(running: readonly Running[], shapes: Shapes, rounds: number): Promise<Measured[]> {
  for (let round = 0; round < WARMUP_ROUNDS + rounds; round++) {
    const timed = round >= WARMUP_ROUNDS;
    for (let turn = 0; turn < running.length; turn++) {
      const each = running[(round + turn) % running.length] as Running;
      const batch = (invoke: Invoke, shape: LoadShape) =>
        each.pools.run(
          `${each.configuration.name} ${invoke.tool} round ${round}`,
          each.deployment.key,
          invoke,
          shape,
        );
      const read = await batch(READ, shapes.read);
      const write = await batch(WRITE, shapes.write);
      if (timed) {
        each.read.push(read);
        each.write.push(write);
      }
    }
  }
  return running.map(({ configuration, read, write }) => ({
    configuration,
    read: summarise(read),
    write: summarise(write),
  }));
}

async function dropSchemas(): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES });
  await client.connect();
  try {
    for (const configuration of CONFIGURATIONS.filter((each) => each.postgres)) {
      await client.query(`DROP SCHEMA IF EXISTS ${schemaOf(configuration)} CASCADE`);
    }
  } finally {
    await client.end();
  }
}

function figures(measured: readonly Measured[], shapes: Shapes, rounds: number, ms: number) {
  const result: Record<string, number | boolean> = {};
  for (const { configuration, read, write } of measured) {
    for (const [kind, load] of [
      ["read", read],
      ["write", write],
    ] as const) {
      result[`${configuration.name}_${kind}_rps`] = load.rps;
      result[`${configuration.name}_${kind}_p50_ms`] = load.p50Ms;
      result[`${configuration.name}_${kind}_p99_ms`] = load.p99Ms;
      result[`${configuration.name}_${kind}_client_cpu`] = load.clientCpu;
      result[`${configuration.name}_${kind}_machine_cpu`] = load.machineCpu;
    }
  }
  const ratio = Number(result.pg3_read_rps) / Number(result.pg1_read_rps);
  return {
    ...result,
    pg3_over_pg1_read: Math.round(ratio * 100) / 100,
    pg3_over_pg1_read_target: READ_RATIO_TARGET,
    pg3_over_pg1_read_met: ratio >= READ_RATIO_TARGET,
    cpus: availableParallelism(),
    rounds,
    reads_a_round: shapes.read.requests,
    writes_a_round: shapes.write.requests,
    concurrency: shapes.read.concurrency,
    seconds: Math.round(ms / 100) / 10,
  };
}

function printTable(measured: readonly Measured[], result: ReturnType<typeof figures>): void {
  console.log(
    `toolreg serve, scaled out: ${result.rounds} timed rounds of ${result.reads_a_round} reads (count_read) ` +
      `and ${result.writes_a_round} external writes (count_write) a configuration, ${result.concurrency} ` +
      `at once, round-robin over its instances; ${result.cpus} CPUs, shared by the servers, PostgreSQL ` +
      "and the load generator",
  );
  console.log(
    `${"configuration".padEnd(26)}${"tool".padEnd(13)}${"req/s".padStart(8)}${"p50 ms".padStart(9)}` +
      `${"p99 ms".padStart(9)}${"client CPU".padStart(12)}${"machine CPU".padStart(13)}`,
  );
  for (const { configuration, read, write } of measured) {
    for (const [tool, load] of [
      [READ.tool, read],
      [WRITE.tool, write],
    ] as const) {
      console.log(
        `${configuration.label.padEnd(26)}${tool.padEnd(13)}${String(load.rps).padStart(8)}` +
          `${load.p50Ms.toFixed(2).padStart(9)}${load.p99Ms.toFixed(2).padStart(9)}` +
          `${load.clientCpu.toFixed(2).padStart(12)}${load.machineCpu.toFixed(2).padStart(13)}`,
      );
    }
  }
  console.log(
    `reads, 3 instances / 1 on PostgreSQL: ${result.pg3_over_pg1_read.toFixed(2)} ` +
      `(target ≥ ${READ_RATIO_TARGET}: ${result.pg3_over_pg1_read_met ? "met" : "MISSED"})`,
  );
  console.log(
    `req/s: the median round's; CPU in cores' worth: client is this process, machine all ${result.cpus} ` +
      `CPUs together (anything else running included), so near ${result.cpus}.00 the machine was the ` +
      `limit. Run took ${result.seconds} s.`,
  );
}

const concurrency = positiveInteger("TOOLREG_BENCH_SCALE_CONCURRENCY", 32);
const rounds = positiveInteger("TOOLREG_BENCH_SCALE_ROUNDS", 7);
const shapes: Shapes = {
  read: { requests: positiveInteger("TOOLREG_BENCH_SCALE_READS", 2_000), concurrency },
  write: { requests: positiveInteger("TOOLREG_BENCH_SCALE_WRITES", 600), concurrency },
};
const started = performance.now();
const directory = mkdtempSync(join(tmpdir(), "toolreg-bench-scale-"));
const running: Running[] = [];
let measured: Measured[];
try {
  for (const configuration of CONFIGURATIONS)
    running.push(await start(configuration, directory, concurrency));
  measured = await measure(running, shapes, rounds);
} finally {
  for (const each of running) {
    await each.pools.close();
    await each.deployment.stop();
  }
  await dropSchemas();
  rmSync(directory, { recursive: true, force: true });
}
const result = figures(measured, shapes, rounds, performance.now() - started);
if (process.argv.includes("--json")) console.log(JSON.stringify(result));
else printTable(measured, result);
