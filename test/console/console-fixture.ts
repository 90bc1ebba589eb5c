/**
 * @module A registry server on 127.0.0.1 for the console test: one tenant, a handful of tools (one of them an
 * external write that needs approval), an operator with a one-time login link, and an agent key.
 */
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { HashedBagOfWordsEmbedding } from "../../src/catalog/search/embedding-provider.js";
import { defineTool } from "../../src/declaration/define-tool.js";
import { createEgressClient } from "../../src/egress/egress-client.js";
import { createKnowledgeIntake } from "../../src/knowledge/intake.js";
import type { KnowledgeBase } from "../../src/ports/knowledge-base.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { createScriptedTool, type ScriptedTool } from "../../src/test/scripted-tool.js";
import { calculateTool } from "../../src/tools/general/index.js";
import { createToolkitHost } from "../../src/tools/toolkit/toolkit-host.js";
import { notesToolkit } from "../consent/notes-toolkit.js";

/** Where the notes toolkit's users are sent to consent: a host the browser test answers itself. */
export const NOTES_AUTHORIZE_URL = "https://notes.example/authorize";

export interface ConsoleFixture {
  url: string;
  /** The operator's one-time console login. */
  loginUrl: string;
  agentKey: string;
  sendEmail: ScriptedTool;
  /** Calls a tool over the API as the agent. */
  invokeAsAgent(tool: string, input: unknown): Promise<Response>;
  /**
   * An approved send_email whose process died mid-run, as the sweep finds it: parked by the agent,
   * approved, its run lost. Returns the approval id.
   */
  interruptedCall(input: unknown): Promise<string>;
  close(): Promise<void>;
}

/**
 * `credentials`: the server keeps credentials under a key, and serves a notes toolkit whose credential is a
 * token or an OAuth connection (its OAuth app configured), for the credentials page.
 */
export async function startConsoleFixture(
  options: { credentials?: boolean; knowledge?: boolean } = {},
): Promise<ConsoleFixture> {
  const dir = mkdtempSync(join(tmpdir(), "toolreg-console-"));
  const sendEmail = createScriptedTool(
    [(input) => ({ content: `sent to ${(input as { to: string }).to}`, data: { sent: input } })],
    {
      name: "send_email",
      description:
        "Sends an email from the team mailbox to one recipient. Once sent it cannot be recalled, so a person approves every message.",
      category: "communication",
      effect: "external-write",
      input: z.object({
        to: z.email().describe("the recipient's address"),
        subject: z.string().min(1).max(200).describe("the subject line"),
        body: z.string().max(10_000).describe("the message, as plain text"),
        cc: z.array(z.email()).max(10).optional().describe("addresses that get a copy"),
      }),
    },
  );
  const createTask = defineTool({
    name: "create_task",
    description: "Adds a task to the team's board, assigned to a person, with an optional due date.",
    category: "productivity",
    effect: "internal-write",
    input: z.object({
      title: z.string().min(1).max(120).describe("what needs doing"),
      assignee: z.string().describe("who does it"),
      due: z.iso.date().optional().describe("the day it is due"),
    }),
    run: ({ title }) => `created “${title}”`,
  });
  const lookupContact = defineTool({
    name: "lookup_contact",
    description: "Finds a customer contact by name or email in the CRM.",
    category: "crm",
    effect: "read",
    input: z.object({
      query: z.string().min(2).describe("a name, or part of an email address"),
      limit: z.number().int().min(1).max(50).default(10).describe("how many contacts to return"),
    }),
    run: () => "no contacts",
  });
  const toolkitHost = createToolkitHost();
  const transport = createEgressClient();
  const notes = options.credentials
    ? await notesToolkit({
        authorizeUrl: NOTES_AUTHORIZE_URL,
        tokenUrl: "https://notes.example/token",
      }).build({ baseUrl: "https://notes.example/api" }, toolkitHost)
    : [];
  let publicUrl = "";
  const server = openRegistryServer({
    registry: new ToolRegistry([calculateTool, sendEmail, createTask, lookupContact, ...notes]),
    store: join(dir, "toolreg.db"),
    logger: silentLogger,
    // The knowledge page's sources, embedded by the local hashed bag of words; URLs through egress (loopback too).
    ...(options.knowledge
      ? {
          knowledge: (base: KnowledgeBase) =>
            createKnowledgeIntake({
              knowledge: base,
              embedder: {
                model: "hashed-64",
                embed: (texts) => new HashedBagOfWordsEmbedding(64).embed(texts),
              },
              egress: createEgressClient({ policy: { allowAddressClasses: ["public", "loopback"] } }),
            }),
        }
      : {}),
    ...(options.credentials
      ? {
          credentials: {
            key: randomBytes(32),
            publicUrl: () => publicUrl,
            transport,
            apps: { notes: { clientId: "console-notes" } },
          },
        }
      : {}),
  });
  const operator = await server.auth.createKey({ tenantId: "acme", principalId: "alice", operator: true });
  const agentKey = (await server.auth.createKey({ tenantId: "acme", principalId: "support-agent" })).key;
  const listening: Listening = await listen(server, { port: 0 });
  publicUrl = listening.url;
  const invokeAsAgent = (tool: string, input: unknown) =>
    fetch(`${listening.url}/api/v1/tools/${tool}/invoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${agentKey}`, "content-type": "application/json" },
      body: JSON.stringify(input),
    });
  return {
    url: listening.url,
    loginUrl: `${listening.url}/login?token=${await server.auth.createLoginToken(operator.record.id)}`,
    agentKey,
    sendEmail,
    invokeAsAgent,
    async interruptedCall(input) {
      const parked = (await (await invokeAsAgent("send_email", input)).json()) as {
        error: { details: { approvalId: string } };
      };
      const id = parked.error.details.approvalId;
      const { approvals } = server.deps.stores;
      const now = Date.now();
      await approvals.decide({ tenantId: "acme", id, decision: "approved", by: "alice", at: now });
      const lost = { reason: "lost" as const, at: now, startedAt: now - 60_000, lastHeartbeat: now - 55_000 };
      await approvals.interrupt({
        tenantId: "acme",
        id,
        interruption: { ...lost, by: "support-agent", holder: "web-2:4711" },
      });
      return id;
    },
    async close() {
      await listening.stop(2_000);
      await toolkitHost.close();
      await transport.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
