/**
 * @module The adapters' tools over a SQLite state file, for tests where a run is saved in one process and
 * approved and resumed in another: each process opens the same file, and every email the tool sends is a
 * line in `sent.log` beside it, so a test counts executions across processes.
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { defineTool } from "../../src/declaration/define-tool.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import { createExecutionContext } from "../../src/seam/context.js";
import { Seam } from "../../src/seam/seam.js";
import { openSqliteStores } from "../../src/stores/sqlite/index.js";
import { calculateTool } from "../../src/tools/general/index.js";

/** The same tenant, principal and run in every process, so a resumed call keeps its idempotency key. */
export function durableAdapterHarness(dir: string) {
  const log = join(dir, "sent.log");
  const sendEmail = defineTool({
    name: "send_email",
    description: "Sends an email.",
    category: "general",
    effect: "external-write",
    input: z.object({ to: z.string() }),
    run(input) {
      appendFileSync(log, `${JSON.stringify(input)}\n`);
      return "sent";
    },
  });
  const stores = openSqliteStores(join(dir, "state.db"));
  const seam = new Seam({ registry: new ToolRegistry([calculateTool, sendEmail]).view(), stores });
  return {
    seam,
    stores,
    context: (toolCallId: string) =>
      createExecutionContext({ tenantId: "t1", principalId: "p1", runId: "r1", toolCallId }),
    close: () => stores.close(),
  };
}

/** The emails sent so far by every process that opened `dir`. */
export function sentEmails(dir: string): unknown[] {
  const log = join(dir, "sent.log");
  if (!existsSync(log)) return [];
  return readFileSync(log, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line));
}
