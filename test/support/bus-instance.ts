/**
 * @module Instances of one deployment in the test process: registry servers on one PostgreSQL schema, each
 * with its own NATS connection on one subject prefix (or none), listening on 127.0.0.1, and the SSE reader
 * the bus tests watch their event streams with.
 */
import { z } from "zod";
import { defineTool } from "../../src/declaration/define-tool.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import type { Logger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { NatsEventBus } from "../../src/stores/nats/event-bus.js";
import { openPostgresDeployment } from "../../src/stores/postgres/index.js";
import { createScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";
import { NATS_URL } from "./nats.js";
import { POSTGRES_URL } from "./postgres-schema.js";

/** A logger that keeps what is warned, so a test can see an event it sent was refused. */
export function recordingLogger(): Logger & { warnings: object[] } {
  const warnings: object[] = [];
  const noop = () => {};
  return { warnings, debug: noop, info: noop, error: noop, warn: (object) => warnings.push(object) };
}

/**
 * calculate; send_email, parked for approval; read_ledger (finance, runtime 2.x); audit_payroll (finance,
 * needing the payroll:read scope). A fresh registry per instance, as each process has its own.
 */
export function busRegistry(): ToolRegistry {
  const sendEmail = createScriptedTool([{ content: "sent" }], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });
  const ledger = defineTool({
    name: "read_ledger",
    description: "Reads the general ledger of the finance team.",
    category: "finance",
    effect: "read",
    runtime: ">=2.0.0 <3.0.0",
    input: z.object({}),
    run: () => "ledger",
  });
  const payroll = defineTool({
    name: "audit_payroll",
    description: "Reads the payroll of the finance team for an audit.",
    category: "finance",
    effect: "read",
    scopes: ["payroll:read"],
    input: z.object({}),
    run: () => "payroll",
  });
  return new ToolRegistry([calculateTool, sendEmail, ledger, payroll]);
}

export interface Instance {
  url: string;
  server: RegistryServer;
  registry: ToolRegistry;
  /** Its connection to NATS, when it has one. */
  bus: NatsEventBus | undefined;
  /** fetch against the instance with a key. */
  call(path: string, key: string, init?: RequestInit): Promise<Response>;
  stop(): Promise<void>;
}

/** An instance on `schema`; with `prefix`, on the bus too. Tenant a has no finance tools. */
export async function startInstance(options: {
  schema: string;
  prefix?: string;
  logger: Logger;
}): Promise<Instance> {
  const { logger } = options;
  const stores = await openPostgresDeployment({ connectionString: POSTGRES_URL, schema: options.schema });
  let bus: NatsEventBus | undefined;
  try {
    bus = options.prefix
      ? await NatsEventBus.open({ url: NATS_URL, subjectPrefix: options.prefix, logger })
      : undefined;
  } catch (error) {
    await stores.close();
    throw error;
  }
  const registry = busRegistry();
  const server = openRegistryServer({
    registry,
    store: stores,
    logger,
    ...(bus ? { bus } : {}),
    toolsets: {
      categoriesFor: (tenantId) =>
        new Set(
          tenantId === "tenant-a" ? ["general", "communication"] : ["general", "communication", "finance"],
        ),
    },
  });
  // A round trip on the connection: NATS has taken the server's subscriptions before anyone publishes.
  await bus?.request("nothing-serves-this", {}, 200).catch(() => {});
  let listening: Listening;
  try {
    listening = await listen(server, { port: 0 });
  } catch (error) {
    await server.close();
    await bus?.close();
    throw error;
  }
  return {
    url: listening.url,
    server,
    registry,
    bus,
    call: (path, key, init = {}) =>
      fetch(`${listening.url}${path}`, {
        ...init,
        headers: { authorization: `Bearer ${key}`, ...(init.headers as Record<string, string>) },
      }),
    async stop() {
      await listening.stop(1_000);
      // The server closes its stores, not the bus: that is for whoever opened it, here.
      await bus?.close();
    },
  };
}

export interface SseEvent {
  event: string;
  data: unknown;
}

/** Reads `GET /api/v1/events` of an instance as `key`; resolves once the stream said it is ready. */
export async function watchEvents(instance: Instance, key: string) {
  const controller = new AbortController();
  const response = await instance.call("/api/v1/events", key, { signal: controller.signal });
  if (response.status !== 200) throw new Error(`the event stream answered ${response.status}`);
  const events: SseEvent[] = [];
  let text = "";
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  const reading = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      text += decoder.decode(value, { stream: true });
      // Each event ends with a blank line; what is left after the last one has yet to arrive.
      const blocks = text.split("\n\n");
      text = blocks.pop() ?? "";
      for (const block of blocks) {
        const event = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (event && data !== undefined) events.push({ event, data: JSON.parse(data) });
      }
    }
  })().catch(() => {});
  const ready = () => events.some((event) => event.event === "ready");
  const deadline = Date.now() + 2_000;
  while (!ready() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!ready()) throw new Error("the event stream never said it was ready");
  return {
    /** What arrived after `ready`. */
    heard: () => events.filter((event) => event.event !== "ready"),
    async close() {
      controller.abort();
      await reading;
    },
  };
}
