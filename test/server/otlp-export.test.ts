/**
 * @module `toolreg serve` with the standard OTLP environment, against a local OTLP/HTTP receiver: each
 * call's `execute_tool` span joins the caller's `traceparent` over HTTP and over MCP (`_meta` winning over
 * the header), an imported tool's outbound request is the span's child and carries the trace on (in its
 * HTTP header and its `_meta`), and the call and approval metrics arrive. Runs the built CLI.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLI } from "../cli/run-cli.js";
import { type McpHttpUpstream, serveMcpOverHttp } from "../support/mcp-http-upstream.js";
import { until } from "../support/until.js";

/** An OTLP attribute as the JSON encoding has it. */
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes: OtlpAttribute[];
  resource: OtlpAttribute[];
}
interface OtlpDataPoint {
  attributes: OtlpAttribute[];
  asInt?: string | number;
  asDouble?: number;
  count?: string | number;
}
interface OtlpMetric {
  name: string;
  sum?: { dataPoints: OtlpDataPoint[] };
  gauge?: { dataPoints: OtlpDataPoint[] };
  histogram?: { dataPoints: OtlpDataPoint[] };
}

/** A local OTLP/HTTP receiver: what the exporters POST to /v1/traces and /v1/metrics, as JSON. */
async function startReceiver() {
  const bodies: Record<string, unknown[]> = { "/v1/traces": [], "/v1/metrics": [] };
  const contentTypes = new Set<string>();
  const server = createServer(async (request, response) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const list = bodies[request.url ?? ""];
    if (request.method !== "POST" || !list) {
      response.writeHead(404).end();
      return;
    }
    contentTypes.add(String(request.headers["content-type"]));
    const raw = Buffer.concat(chunks);
    const body = request.headers["content-encoding"] === "gzip" ? gunzipSync(raw) : raw;
    list.push(JSON.parse(body.toString("utf8")));
    response.writeHead(200, { "content-type": "application/json" }).end("{}");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  type Resource = { resource: { attributes: OtlpAttribute[] } };
  return {
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    contentTypes,
    spans: (): OtlpSpan[] =>
      (bodies["/v1/traces"] as { resourceSpans: (Resource & { scopeSpans: { spans: OtlpSpan[] }[] })[] }[])
        .flatMap((body) => body.resourceSpans)
        .flatMap(({ resource, scopeSpans }) =>
          scopeSpans.flatMap(({ spans }) =>
            spans.map((span) => ({ ...span, resource: resource.attributes })),
          ),
        ),
    metrics: (): OtlpMetric[] =>
      (
        bodies["/v1/metrics"] as {
          resourceMetrics: (Resource & { scopeMetrics: { metrics: OtlpMetric[] }[] })[];
        }[]
      )
        .flatMap((body) => body.resourceMetrics)
        .flatMap(({ scopeMetrics }) => scopeMetrics.flatMap(({ metrics }) => metrics)),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

const attribute = (attributes: OtlpAttribute[], key: string) => {
  const value = attributes.find((candidate) => candidate.key === key)?.value;
  return value?.stringValue ?? value?.intValue ?? value?.boolValue ?? value?.doubleValue;
};

/** What the imported upstream saw of each tools/call: the `_meta` and the HTTP `traceparent` it came with. */
const upstreamSaw: { meta: Record<string, unknown> | undefined; headers: IncomingHttpHeaders }[] = [];

function upstreamServer(): Server {
  const server = new Server({ name: "upstream", version: "1.0.0" }, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [
      {
        name: "echo",
        description: "Echoes its text.",
        inputSchema: { type: "object", properties: { text: { type: "string" } } },
        annotations: { readOnlyHint: true },
      },
    ],
  }));
  server.setRequestHandler(CallToolRequestSchema, (request, extra) => {
    upstreamSaw.push({
      meta: request.params._meta,
      headers: (extra.requestInfo?.headers ?? {}) as IncomingHttpHeaders,
    });
    return { content: [{ type: "text", text: String(request.params.arguments?.text) }] };
  });
  return server;
}

const traceparent = (traceId: string, spanId: string) => `00-${traceId}-${spanId}-01`;
/** The parts of a W3C traceparent. */
const parts = (value: unknown) => {
  const [, traceId, parentId] = /^00-([\da-f]{32})-([\da-f]{16})-0[01]$/.exec(String(value)) ?? [];
  return { traceId, parentId };
};

const HTTP_TRACE = "11111111111111111111111111111111";
const HTTP_IMPORT_TRACE = "22222222222222222222222222222222";
const MCP_META_TRACE = "33333333333333333333333333333333";
const MCP_HEADER_TRACE = "44444444444444444444444444444444";
const MCP_IMPORT_TRACE = "55555555555555555555555555555555";
const CALLER_SPAN = "aaaaaaaaaaaaaaaa";

interface Served {
  url: string;
  key: string;
  /** SIGTERM, and the exit code. */
  stop(): Promise<number | null>;
}

const children: ChildProcess[] = [];

/** `toolreg serve` as a user starts it, exporting to `endpoint` on the schedules `otel` sets. */
async function serve(cwd: string, args: string[], otel: Record<string, string>): Promise<Served> {
  const { TOOLREG_DB: _ignored, ...env } = process.env;
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...env, ...otel },
  });
  children.push(child);
  let printed = "";
  child.stdout?.on("data", (chunk) => {
    printed += chunk.toString();
  });
  child.stderr?.on("data", (chunk) => {
    printed += chunk.toString();
  });
  await until("serve to start", 20_000, () => (/console: .*\n/.test(printed) ? true : undefined));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    url: /toolreg registry on (http:\/\/[^ ]+)/.exec(printed)?.[1] as string,
    key: /\(shown once\): (trk_\S+)/.exec(printed)?.[1] as string,
    stop: () => {
      child.kill("SIGTERM");
      return exited;
    },
  };
}

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let upstream: McpHttpUpstream;
let cwd: string;
let url: string;
let key: string;

beforeAll(async () => {
  receiver = await startReceiver();
  upstream = await serveMcpOverHttp(upstreamServer);
  cwd = mkdtempSync(join(tmpdir(), "toolreg-otlp-"));
  writeFileSync(
    join(cwd, "mcp.json"),
    JSON.stringify({ servers: [{ name: "upstream", url: upstream.url, egressAllow: ["loopback"] }] }),
  );
  ({ url, key } = await serve(cwd, ["--mcp-config", "mcp.json"], {
    OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    OTEL_BSP_SCHEDULE_DELAY: "100",
    OTEL_METRIC_EXPORT_INTERVAL: "300",
  }));
});

afterAll(async () => {
  for (const child of children) child.kill("SIGKILL");
  await upstream?.close();
  await receiver?.close();
  rmSync(cwd, { recursive: true, force: true });
});

const invoke = (tool: string, input: unknown, trace: string, on = { url, key }) =>
  fetch(`${on.url}/api/v1/tools/${tool}/invoke`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${on.key}`,
      "content-type": "application/json",
      traceparent: traceparent(trace, CALLER_SPAN),
      tracestate: "caller=1",
    },
    body: JSON.stringify(input),
  });

/** The exported `execute_tool` span of `tool` in `traceId`, once it arrives. */
const callSpan = (tool: string, traceId: string) =>
  until(`the execute_tool ${tool} span of trace ${traceId}`, 10_000, () =>
    receiver.spans().find((span) => span.name === `execute_tool ${tool}` && span.traceId === traceId),
  );

describe("toolreg serve exporting over OTLP/HTTP", () => {
  it("joins an HTTP caller's traceparent, with the GenAI attributes", async () => {
    const response = await invoke("calculate", { expression: "6*7" }, HTTP_TRACE);
    expect(response.status).toBe(200);
    const span = await callSpan("calculate", HTTP_TRACE);
    expect(span.parentSpanId).toBe(CALLER_SPAN);
    expect(span.traceState).toBe("caller=1");
    expect(attribute(span.attributes, "gen_ai.operation.name")).toBe("execute_tool");
    expect(attribute(span.attributes, "gen_ai.tool.name")).toBe("calculate");
    expect(attribute(span.attributes, "gen_ai.tool.call.id")).toBe(
      response.headers.get("x-toolreg-tool-call-id"),
    );
    expect(attribute(span.attributes, "toolreg.outcome")).toBe("ok");
    expect(attribute(span.resource, "service.name")).toBe("toolreg");
    // The exporters speak OTLP/HTTP JSON.
    expect([...receiver.contentTypes]).toEqual(["application/json"]);
  });

  it("an imported tool's outbound request is the call span's child, and carries the trace upstream", async () => {
    const response = await invoke("upstream_echo", { text: "traced" }, HTTP_IMPORT_TRACE);
    expect(await response.json()).toMatchObject({ ok: true });
    const span = await callSpan("upstream_echo", HTTP_IMPORT_TRACE);
    expect(span.parentSpanId).toBe(CALLER_SPAN);

    const saw = upstreamSaw.at(-1);
    // In `_meta`, the MCP way: the trace goes on from the call's span.
    expect(parts(saw?.meta?.traceparent)).toEqual({ traceId: HTTP_IMPORT_TRACE, parentId: span.spanId });
    // In the HTTP header, through egress: from the HTTP client span of the request, the call span's child.
    const header = parts(saw?.headers.traceparent);
    expect(header.traceId).toBe(HTTP_IMPORT_TRACE);
    const outbound = await until("the outbound request's span", 10_000, () =>
      receiver.spans().find((candidate) => candidate.spanId === header.parentId),
    );
    expect(outbound.parentSpanId).toBe(span.spanId);
    expect(outbound.kind).toBe(3); // SPAN_KIND_CLIENT
  });

  it("joins an MCP caller's trace: the request's _meta over the HTTP header, the header without one", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), {
      requestInit: {
        headers: { authorization: `Bearer ${key}`, traceparent: traceparent(MCP_HEADER_TRACE, CALLER_SPAN) },
      },
    });
    const client = new Client({ name: "traced-client", version: "0" });
    await client.connect(transport);
    try {
      const fromMeta = await client.callTool({
        name: "calculate",
        arguments: { expression: "1+2" },
        _meta: { traceparent: traceparent(MCP_META_TRACE, "bbbbbbbbbbbbbbbb") },
      });
      expect(fromMeta.isError).toBeFalsy();
      expect((await callSpan("calculate", MCP_META_TRACE)).parentSpanId).toBe("bbbbbbbbbbbbbbbb");

      await client.callTool({ name: "calculate", arguments: { expression: "2+3" } });
      expect((await callSpan("calculate", MCP_HEADER_TRACE)).parentSpanId).toBe(CALLER_SPAN);

      // What the tool sends out is the call's child in the MCP caller's trace too.
      const echoed = await client.callTool({
        name: "upstream_echo",
        arguments: { text: "traced over MCP" },
        _meta: { traceparent: traceparent(MCP_IMPORT_TRACE, "cccccccccccccccc") },
      });
      expect(echoed.isError).toBeFalsy();
      const span = await callSpan("upstream_echo", MCP_IMPORT_TRACE);
      expect(span.parentSpanId).toBe("cccccccccccccccc");
      const header = parts(upstreamSaw.at(-1)?.headers.traceparent);
      expect(header.traceId).toBe(MCP_IMPORT_TRACE);
      const outbound = await until("the outbound request's span", 10_000, () =>
        receiver.spans().find((candidate) => candidate.spanId === header.parentId),
      );
      expect(outbound.parentSpanId).toBe(span.spanId);
    } finally {
      await client.close();
    }
  });

  it("exports the call and approval metrics", async () => {
    const refused = await invoke("calculate", { expression: 42 }, HTTP_TRACE);
    expect(refused.status).toBe(422);
    const named = (name: string) => receiver.metrics().filter((metric) => metric.name === name);
    const points = (name: string, kind: "sum" | "gauge" | "histogram") =>
      named(name).flatMap((metric) => metric[kind]?.dataPoints ?? []);
    await until("the refused call's error count", 10_000, () =>
      points("toolreg.call.errors", "sum").find(
        (point) =>
          attribute(point.attributes, "gen_ai.tool.name") === "calculate" &&
          attribute(point.attributes, "error.type") === "invalid_input",
      ),
    );
    const calls = points("toolreg.calls", "sum").filter(
      (point) =>
        attribute(point.attributes, "gen_ai.tool.name") === "calculate" &&
        attribute(point.attributes, "toolreg.outcome") === "ok",
    );
    // Cumulative: the latest reading counts the HTTP call and the two MCP calls.
    expect(Math.max(...calls.map((point) => Number(point.asInt)))).toBe(3);
    const durations = points("gen_ai.execute_tool.duration", "histogram").filter(
      (point) => attribute(point.attributes, "gen_ai.tool.name") === "upstream_echo",
    );
    // One over HTTP, one over MCP.
    expect(Math.max(...durations.map((point) => Number(point.count)))).toBe(2);
    expect(Number(points("toolreg.approvals.waiting", "gauge").at(-1)?.asInt)).toBe(0);
    expect(named("toolreg.approvals.waiting.age")).not.toHaveLength(0);
  });
});

describe("toolreg serve stopping", () => {
  it("sends the spans and metrics it still holds before it exits", async () => {
    const quiet = await startReceiver();
    const own = mkdtempSync(join(tmpdir(), "toolreg-otlp-stop-"));
    const served = await serve(own, [], {
      OTEL_EXPORTER_OTLP_ENDPOINT: quiet.endpoint,
      // Nothing would go out for a minute: only the stop's flush sends them.
      OTEL_BSP_SCHEDULE_DELAY: "60000",
      OTEL_METRIC_EXPORT_INTERVAL: "60000",
    });
    try {
      const trace = "55555555555555555555555555555555";
      expect((await invoke("calculate", { expression: "9*9" }, trace, served)).status).toBe(200);
      expect(quiet.spans()).toEqual([]);
      expect(await served.stop()).toBe(0);
      expect(quiet.spans().find((span) => span.traceId === trace)?.name).toBe("execute_tool calculate");
      expect(quiet.metrics().map((metric) => metric.name)).toContain("toolreg.calls");
    } finally {
      await quiet.close();
      rmSync(own, { recursive: true, force: true });
    }
  });
});
