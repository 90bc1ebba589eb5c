/** `toolreg mcp` runs a parked call as a task that `toolreg approvals approve`, in another process, completes. */
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { CallToolResultSchema, CreateTaskResultSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterEach, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { connectToolregMcp } from "./connect-toolreg-mcp.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

it("completes a task over stdio once the approval is decided by the CLI in another process", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "toolreg-mcp-task-"));
  const counting = fileURLToPath(new URL("../fixtures/counting/catalogue.mjs", import.meta.url));
  const flags = ["--registry", counting, "--mode", "gated"];
  const mcp = await connectToolregMcp(cwd, flags);
  client = mcp;
  expect(mcp.getServerCapabilities()?.tasks?.requests?.tools?.call).toEqual({});
  const { task } = await mcp.request(
    { method: "tools/call", params: { name: "count_write", arguments: { label: "tasked" }, task: {} } },
    CreateTaskResultSchema,
  );
  let approvalId: string | undefined;
  for (let tries = 0; tries < 200 && !approvalId; tries++) {
    const seen = await mcp.experimental.tasks.getTask(task.taskId);
    approvalId = /approval ([0-9a-f-]{36})/.exec(seen.statusMessage ?? "")?.[1];
    if (!approvalId) await new Promise((resolve) => setTimeout(resolve, 25));
  }
  expect(approvalId).toEqual(expect.any(String));

  // Another process, with nothing to tell the server: the task reads the decision from the store.
  const approved = await runToolreg(
    ["--db", join(cwd, "toolreg.db"), ...flags, "approvals", "approve", approvalId as string],
    cwd,
  );
  expect(approved.code).toBe(0);
  const result = await mcp.experimental.tasks.getTaskResult(task.taskId, CallToolResultSchema);
  expect(result.isError).toBeFalsy();
  expect(result.content).toEqual([{ type: "text", text: "counted tasked" }]);
  const starts = readFileSync(join(cwd, "executions.log"), "utf8")
    .split("\n")
    .filter((line) => line.includes("\tstart\t"));
  expect(starts).toHaveLength(1);
}, 30_000);
