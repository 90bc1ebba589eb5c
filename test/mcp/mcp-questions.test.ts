/**
 * /mcp puts a key's own questions (ask_questions) to its client's user as a form, as the approvals API
 * lets the asker answer them: no approver rights, no self-approval. Its request_approval stays parked.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer, type RegistryServer } from "../../src/server/registry-server.js";
import { humanTools } from "../../src/tools/human/index.js";

let dir: string;
let server: RegistryServer;
let listening: Listening;
let plainKey: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-mcp-questions-"));
  server = openRegistryServer({
    registry: new ToolRegistry(humanTools(undefined)),
    store: join(dir, "toolreg.db"),
    logger: silentLogger,
  });
  // No scopes, not an operator, and the deployment forbids self-approval (its default).
  plainKey = (await server.auth.createKey({ tenantId: "acme", principalId: "ada" })).key;
  listening = await listen(server, { port: 0 });
});
afterAll(async () => {
  await listening.stop(2_000);
  rmSync(dir, { recursive: true, force: true });
});

/** A session whose user accepts every form with `content`; the forms' messages are kept. */
async function acceptingClient(content: Record<string, unknown>) {
  const asked: string[] = [];
  const client = new Client({ name: "test", version: "0" }, { capabilities: { elicitation: { form: {} } } });
  client.setRequestHandler(ElicitRequestSchema, (request) => {
    asked.push(request.params.message);
    return { action: "accept", content };
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${listening.url}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${plainKey}` } },
    }),
  );
  return { client, asked };
}

describe("a plain key's own questions over /mcp", () => {
  it("are put to its user as a form and answered; its request for approval is not", async () => {
    const { client, asked } = await acceptingClient({ size: "M" });
    try {
      const answered = await client.callTool({
        name: "ask_questions",
        arguments: { questions: [{ id: "size", text: "Which size?", choices: ["S", "M", "L"] }] },
      });
      expect(asked).toEqual([expect.stringMatching(/Your agent asks you a question/)]);
      expect(answered.isError).toBeUndefined();
      expect(JSON.stringify(answered.content)).toContain('- size: \\"M\\"');

      const plan = await client.callTool({
        name: "request_approval",
        arguments: { plan: "Delete the logs" },
      });
      expect(asked, "approving one's own plan is not one's to do").toHaveLength(1);
      expect(plan.isError).toBe(true);
      expect(plan._meta?.["toolreg/approvalId"]).toEqual(expect.any(String));

      const records = await server.deps.stores.approvals.list({ tenantId: "acme" });
      expect(records.map(({ toolName, status, decidedBy }) => ({ toolName, status, decidedBy }))).toEqual(
        expect.arrayContaining([
          { toolName: "ask_questions", status: "executed", decidedBy: "ada" },
          { toolName: "request_approval", status: "pending", decidedBy: undefined },
        ]),
      );
    } finally {
      await client.close();
    }
  });
});
