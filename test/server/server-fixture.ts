/** @module A registry server on 127.0.0.1 over a scratch SQLite file, with two tenants, for the server tests. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "../../src/declaration/define-tool.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import type { OAuthServerOptions } from "../../src/server/oauth/oauth-server.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { createScriptedTool, type ScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";

export interface Fixture {
  url: string;
  /** The SQLite file the server keeps its state in. */
  storePath: string;
  server: RegistryServer;
  listening: Listening;
  sendEmail: ScriptedTool;
  slow: ScriptedTool;
  /** An external write that takes 500 ms and runs without parking: for shutdowns and hang-ups. */
  slowWrite: ScriptedTool;
  keys: { aliceOperator: string; agentA: string; agentB: string; bobOperator: string };
  /** fetch against the server with a key (or none). */
  call(path: string, init?: RequestInit & { key?: string | undefined }): Promise<Response>;
  close(): Promise<void>;
}

export async function startFixture(
  options: {
    bodyTimeoutMs?: number;
    sweepIntervalMs?: number;
    approvalTtlMs?: number;
    allowSelfApproval?: boolean;
    corsOrigins?: string[];
    oauth?: OAuthServerOptions;
  } = {},
): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), "toolreg-server-"));
  const storePath = join(dir, "toolreg.db");
  const sendEmail = createScriptedTool([(input) => ({ content: "sent", data: { sent: input } })], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });
  const slow = createScriptedTool(
    [
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 400));
        return "done slowly";
      },
    ],
    { name: "slow_report", description: "Builds a report slowly.", category: "general" },
  );
  const slowWrite = createScriptedTool(
    [
      async () => {
        await new Promise((resolve) => setTimeout(resolve, 500));
        return "written";
      },
    ],
    {
      name: "slow_write",
      description: "Writes a record to a slow external service.",
      category: "general",
      effect: "external-write",
      approval: "never",
      overrideReason: "runs without parking, so the tests can time its run",
    },
  );
  const ledger = defineTool({
    name: "read_ledger",
    description: "Reads the general ledger of the finance team.",
    category: "finance",
    effect: "read",
    runtime: ">=2.0.0 <3.0.0",
    input: z.object({}),
    run: () => "ledger",
  });
  const registry = new ToolRegistry([calculateTool, sendEmail, slow, slowWrite, ledger]);
  const server = openRegistryServer({
    registry,
    store: storePath,
    logger: silentLogger,
    // Tenant a has no finance tools at all: read_ledger is tenant b's.
    toolsets: {
      categoriesFor: (tenantId) =>
        tenantId === "tenant-a"
          ? new Set(["general", "communication"])
          : new Set(["general", "finance", "communication"]),
    },
    ...(options.bodyTimeoutMs ? { bodyTimeoutMs: options.bodyTimeoutMs } : {}),
    ...(options.sweepIntervalMs ? { sweepIntervalMs: options.sweepIntervalMs } : {}),
    ...(options.approvalTtlMs ? { approvalTtlMs: options.approvalTtlMs } : {}),
    ...(options.allowSelfApproval ? { allowSelfApproval: true } : {}),
    ...(options.corsOrigins ? { corsOrigins: options.corsOrigins } : {}),
    ...(options.oauth ? { oauth: options.oauth } : {}),
  });
  const key = async (tenantId: string, principalId: string, operator = false) =>
    (await server.auth.createKey({ tenantId, principalId, operator })).key;
  const keys = {
    aliceOperator: await key("tenant-a", "alice", true),
    agentA: await key("tenant-a", "agent-a"),
    agentB: await key("tenant-b", "agent-b"),
    bobOperator: await key("tenant-b", "bob", true),
  };
  const listening = await listen(server, { port: 0 });
  return {
    url: listening.url,
    storePath,
    server,
    listening,
    sendEmail,
    slow,
    slowWrite,
    keys,
    call(path, init = {}) {
      const { key: presented, headers, ...rest } = init;
      return fetch(`${listening.url}${path}`, {
        ...rest,
        headers: {
          ...(presented ? { authorization: `Bearer ${presented}` } : {}),
          ...(headers as Record<string, string>),
        },
      });
    },
    async close() {
      await listening.stop(2_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function jsonBody(value: unknown): RequestInit {
  return { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(value) };
}
