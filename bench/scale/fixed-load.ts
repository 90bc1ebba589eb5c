/**
 * @module Batches of a fixed number of tool invokes at a fixed concurrency, round-robin over a deployment's
 * instances, from this process over keep-alive connections (an undici pool per instance). Every answer must
 * be a 200 with `ok: true`: a benchmark of refusals measures nothing, so the first other answer fails the run.
 */
import { cpus } from "node:os";
import { Pool } from "undici";
import { many } from "../../test/faults/requests.js";
import { percentile } from "../percentile.js";

export interface Invoke {
  tool: string;
  input: unknown;
  /** Sends a fresh Idempotency-Key with every call, as an external write requires. */
  idempotent: boolean;
}

export interface LoadShape {
  requests: number;
  concurrency: number;
}

/** One timed batch of calls. */
export interface Batch {
  latenciesMs: number[];
  wallMs: number;
  clientCpuMs: number;
  machineCpuMs: number;
}

export interface LoadFigures {
  /** The median batch's calls per second. */
  rps: number;
  /** Over every call of every batch. */
  p50Ms: number;
  p99Ms: number;
  /** Cores' worth of CPU this process (the load generator) used over the batches. */
  clientCpu: number;
  /** Cores' worth of CPU the whole machine used over the batches: servers, database, load generator, others. */
  machineCpu: number;
}

/** Keep-alive connection pools to the instances, one each, used by every batch on the deployment. */
export class InstancePools {
  private readonly pools: Pool[];

  constructor(urls: readonly string[], connections: number) {
    this.pools = urls.map((url) => new Pool(url, { connections }));
  }

  /** Makes `shape.requests` calls, the i-th on instance i mod n, and times them. */
  async run(name: string, key: string, invoke: Invoke, shape: LoadShape): Promise<Batch> {
    const path = `/api/v1/tools/${invoke.tool}/invoke`;
    const body = JSON.stringify(invoke.input);
    const call = async (index: number): Promise<number> => {
      const pool = this.pools[index % this.pools.length] as Pool;
      const headers: Record<string, string> = {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
      };
      if (invoke.idempotent) headers["idempotency-key"] = crypto.randomUUID();
      const started = performance.now();
      const answer = await pool.request({ path, method: "POST", headers, body });
      const text = await answer.body.text();
      const elapsed = performance.now() - started;
      if (answer.statusCode !== 200 || (JSON.parse(text) as { ok?: unknown }).ok !== true) {
        throw new Error(`${name}: call ${index} answered ${answer.statusCode} ${text.slice(0, 500)}`);
      }
      return elapsed;
    };
    const machineBefore = machineBusyMs();
    const clientBefore = process.cpuUsage();
    const started = performance.now();
    const latenciesMs = await many(shape.requests, shape.concurrency, call);
    const wallMs = performance.now() - started;
    const client = process.cpuUsage(clientBefore);
    return {
      latenciesMs,
      wallMs,
      clientCpuMs: (client.user + client.system) / 1_000,
      machineCpuMs: machineBusyMs() - machineBefore,
    };
  }

  close(): Promise<void> {
    return Promise.all(this.pools.map((pool) => pool.close())).then(() => undefined);
  }
}

/** The figures of a scenario's batches: a burst of outside load moves the median batch's rate the least. */
export function summarise(batches: readonly Batch[]): LoadFigures {
  const rates = batches
    .map((batch) => (batch.latenciesMs.length / batch.wallMs) * 1_000)
    .sort((a, b) => a - b);
  const latencies = batches.flatMap((batch) => batch.latenciesMs).sort((a, b) => a - b);
  const wallMs = batches.reduce((sum, batch) => sum + batch.wallMs, 0);
  const total = (field: "clientCpuMs" | "machineCpuMs") =>
    batches.reduce((sum, batch) => sum + batch[field], 0);
  return {
    rps: Math.round(percentile(rates, 0.5)),
    p50Ms: round(percentile(latencies, 0.5)),
    p99Ms: round(percentile(latencies, 0.99)),
    clientCpu: round(total("clientCpuMs") / wallMs),
    machineCpu: round(total("machineCpuMs") / wallMs),
  };
}

/** Milliseconds every core of the machine has spent busy (not idle) since boot. */
function machineBusyMs(): number {
  return cpus().reduce((sum, { times }) => sum + times.user + times.nice + times.sys + times.irq, 0);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
