/**
 * @module The registry server under HTTP load (autocannon, 127.0.0.1): `GET /manifest.json` on an ETag miss
 * beside a bare node:http server sending the same bytes and headers, a discovery query, and an invoke of a
 * read tool. Each server runs in a child process of its own and the load comes from this one, so no server
 * shares an event loop with the load generator and both are measured alike; each scenario runs after an
 * unrecorded warm-up. A server CPU well under 1.00 means the load generator, not that server, was the limit.
 * Any error or non-2xx response fails the run. Prints a table, or one JSON object with `--json`.
 *
 * TOOLREG_BENCH_SECONDS (default 10) and TOOLREG_BENCH_CONNECTIONS (default 50) shorten a local run;
 * TOOLREG_BENCH_CPU_PROF=<folder> makes each server write a V8 CPU profile there.
 */
import { availableParallelism } from "node:os";
import { positiveInteger } from "./env-integer.js";
import type { BareOptions, BareReady } from "./server/bare-target.js";
import { type LoadFigures, type LoadRequest, type LoadSettings, measureLoad } from "./server/measure-load.js";
import { spawnTarget, type Target } from "./server/spawn-target.js";
import type { ToolregReady } from "./server/toolreg-target.js";

const MANIFEST_RATIO_TARGET = 0.7;
const INVOKE_P99_TARGET_MS = 20;
const DISCOVERY_PATH = "/api/v1/tools?category=files&q=search%20text%20in%20files";
const INVOKE_PATH = "/api/v1/tools/calculate/invoke";
const INVOKE_BODY = JSON.stringify({ expression: "2*(3+4)" });
// node:http sets these itself, per response, on both servers alike.
const PER_RESPONSE_HEADERS = new Set(["date", "connection", "keep-alive", "transfer-encoding"]);

/** The manifest response as a client without gzip gets it: its bytes and the headers worth replaying. */
async function captureManifest(url: string, key: string, tools: number): Promise<BareOptions> {
  const response = await fetch(`${url}/manifest.json`, {
    headers: { authorization: `Bearer ${key}`, "accept-encoding": "identity" },
  });
  const body = await response.text();
  if (response.status !== 200 || response.headers.has("content-encoding")) {
    throw new Error(
      `manifest preflight: ${response.status} ${response.headers.get("content-encoding") ?? ""}`,
    );
  }
  const listed = (JSON.parse(body) as { tools: unknown[] }).tools.length;
  if (listed !== tools) throw new Error(`manifest preflight: ${listed} of ${tools} tools listed`);
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) if (!PER_RESPONSE_HEADERS.has(name)) headers[name] = value;
  return { body, headers };
}

/** One request of each toolreg scenario, so a wrong route or a failing tool stops the run before the load. */
async function preflight(url: string, key: string): Promise<void> {
  const authorization = `Bearer ${key}`;
  const discovery = await fetch(`${url}${DISCOVERY_PATH}`, { headers: { authorization } });
  const found = (await discovery.json()) as { tools?: unknown[] };
  if (discovery.status !== 200 || !found.tools?.length) {
    throw new Error(`discovery preflight: ${discovery.status}, ${found.tools?.length ?? 0} tools found`);
  }
  const invoke = await fetch(`${url}${INVOKE_PATH}`, {
    method: "POST",
    headers: { authorization, "content-type": "application/json" },
    body: INVOKE_BODY,
  });
  const envelope = (await invoke.json()) as { ok: boolean; content?: string };
  if (invoke.status !== 200 || envelope.content !== "14") {
    throw new Error(`invoke preflight: ${invoke.status} ${JSON.stringify(envelope)}`);
  }
}

interface Report {
  settings: LoadSettings;
  tools: number;
  manifestBytes: number;
  manifest: LoadFigures;
  bare: LoadFigures;
  discovery: LoadFigures;
  invoke: LoadFigures;
}

async function run(settings: LoadSettings): Promise<Report> {
  const targets: Target<unknown>[] = [];
  try {
    const toolreg = await spawnTarget<ToolregReady>(new URL("./server/toolreg-target.ts", import.meta.url));
    targets.push(toolreg);
    const { url, key, tools } = toolreg.ready;
    const manifest = await captureManifest(url, key, tools);
    await preflight(url, key);
    const bare = await spawnTarget<BareReady>(new URL("./server/bare-target.ts", import.meta.url), manifest);
    targets.push(bare);

    const authorization = `Bearer ${key}`;
    const load = (name: string, target: Target<unknown>, request: LoadRequest) =>
      measureLoad(name, request, settings, target);
    // The manifest and its baseline back to back, so the same machine state serves both.
    const manifestFigures = await load("manifest", toolreg, {
      url: `${url}/manifest.json`,
      headers: { authorization },
    });
    const bareFigures = await load("bare", bare, { url: bare.ready.url });
    const discoveryFigures = await load("discovery", toolreg, {
      url: `${url}${DISCOVERY_PATH}`,
      headers: { authorization },
    });
    const invokeFigures = await load("invoke", toolreg, {
      url: `${url}${INVOKE_PATH}`,
      method: "POST",
      headers: { authorization, "content-type": "application/json" },
      body: INVOKE_BODY,
    });
    return {
      settings,
      tools,
      manifestBytes: Buffer.byteLength(manifest.body),
      manifest: manifestFigures,
      bare: bareFigures,
      discovery: discoveryFigures,
      invoke: invokeFigures,
    };
  } finally {
    await Promise.all(targets.map((target) => target.stop()));
  }
}

function figures(report: Report) {
  const ratio = report.manifest.rps / report.bare.rps;
  return {
    manifest_rps: report.manifest.rps,
    bare_rps: report.bare.rps,
    manifest_ratio: Math.round(ratio * 1_000) / 1_000,
    manifest_p99_ms: report.manifest.p99Ms,
    discovery_rps: report.discovery.rps,
    discovery_p99_ms: report.discovery.p99Ms,
    invoke_rps: report.invoke.rps,
    invoke_p99_ms: report.invoke.p99Ms,
    bare_p99_ms: report.bare.p99Ms,
    manifest_server_cpu: report.manifest.serverCpu,
    bare_server_cpu: report.bare.serverCpu,
    discovery_server_cpu: report.discovery.serverCpu,
    invoke_server_cpu: report.invoke.serverCpu,
    manifest_ratio_met: ratio >= MANIFEST_RATIO_TARGET,
    invoke_p99_met: report.invoke.p99Ms < INVOKE_P99_TARGET_MS,
    manifest_bytes: report.manifestBytes,
    tools: report.tools,
    connections: report.settings.connections,
    seconds: report.settings.seconds,
    cores: availableParallelism(),
  };
}

function printTable(report: Report): void {
  const result = figures(report);
  const mark = (met: boolean) => (met ? "met" : "MISSED");
  const rows: [string, LoadFigures, string][] = [
    ["GET /manifest.json (ETag miss)", report.manifest, ""],
    ["bare node:http, same bytes", report.bare, ""],
    ["GET /api/v1/tools?category=files&q=…", report.discovery, ""],
    [
      "POST calculate/invoke",
      report.invoke,
      `p99 < ${INVOKE_P99_TARGET_MS} ms: ${mark(result.invoke_p99_met)}`,
    ],
  ];
  const { connections, seconds } = report.settings;
  console.log(
    `registry server under load: ${connections} connections, ${seconds} s a scenario, ${report.tools} tools, ` +
      `manifest ${report.manifestBytes} bytes, ${result.cores} cores`,
  );
  console.log(
    `${"scenario".padEnd(42)}${"req/s".padStart(9)}${"p50 ms".padStart(8)}${"p99 ms".padStart(8)}  server CPU  target`,
  );
  for (const [name, load, target] of rows) {
    console.log(
      `${name.padEnd(42)}${String(load.rps).padStart(9)}${String(load.p50Ms).padStart(8)}` +
        `${String(load.p99Ms).padStart(8)}  ${load.serverCpu.toFixed(2).padStart(10)}  ${target}`,
    );
  }
  console.log(
    `manifest / bare: ${(result.manifest_ratio * 100).toFixed(1)} % ` +
      `(target ≥ ${MANIFEST_RATIO_TARGET * 100} %: ${mark(result.manifest_ratio_met)})`,
  );
  console.log("server CPU: cores' worth the server used; well under 1.00, the load generator was the limit");
}

const seconds = positiveInteger("TOOLREG_BENCH_SECONDS", 10);
// A fifth of the run, at least a second: enough for the JIT and the caches, short next to the run.
const report = await run({
  connections: positiveInteger("TOOLREG_BENCH_CONNECTIONS", 50),
  seconds,
  warmupSeconds: Math.max(1, Math.round(seconds / 5)),
});
if (process.argv.includes("--json")) console.log(JSON.stringify(figures(report)));
else printTable(report);
