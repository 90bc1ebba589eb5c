/**
 * @module One load scenario against a target: an unrecorded warm-up (the JIT, the caches), then a timed
 * autocannon run, with the target's CPU use over it. Any error, timeout or non-2xx response fails the
 * scenario: a benchmark of refusals measures nothing.
 */
import autocannon from "autocannon";
import type { Target } from "./spawn-target.js";

export interface LoadSettings {
  connections: number;
  seconds: number;
  warmupSeconds: number;
}

export type LoadRequest = Omit<autocannon.Options, "connections" | "duration">;

export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  /** Cores' worth of CPU the target used during the timed run: near 1 means the server was the bottleneck. */
  serverCpu: number;
}

export async function measureLoad(
  name: string,
  request: LoadRequest,
  settings: LoadSettings,
  target: Target<unknown>,
): Promise<LoadFigures> {
  const { connections } = settings;
  checked(name, await autocannon({ ...request, connections, duration: settings.warmupSeconds }));
  const cpuBefore = await target.cpuMicros();
  const started = performance.now();
  const result = checked(name, await autocannon({ ...request, connections, duration: settings.seconds }));
  const elapsedMicros = (performance.now() - started) * 1_000;
  const cpuUsed = (await target.cpuMicros()) - cpuBefore;
  return {
    rps: Math.round(result.requests.average),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    serverCpu: Math.round((cpuUsed / elapsedMicros) * 100) / 100,
  };
}

function checked(name: string, result: autocannon.Result): autocannon.Result {
  if (result.errors > 0 || result.timeouts > 0 || result.non2xx > 0 || result["2xx"] === 0) {
    throw new Error(
      `${name}: ${result["2xx"]} 2xx, ${result.non2xx} non-2xx, ${result.errors} errors, ` +
        `${result.timeouts} timeouts (by status: ${JSON.stringify(result.statusCodeStats)})`,
    );
  }
  return result;
}
