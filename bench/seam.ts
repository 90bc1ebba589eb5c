/**
 * Seam overhead, measured in one run against baselines: a plain async function, the same plus a zod parse,
 * and a bare SQLite insert of one idempotency row. Prints a table, or one JSON object with `--json`.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createExecutionContext, createSeam, defineTool, ToolRegistry } from "toolreg";
import { createMemoryStores } from "toolreg/stores/memory";
import { openDatabase, openSqliteStores } from "toolreg/stores/sqlite";
import { z } from "zod";
import { measureInterleaved } from "./measure.js";

const input = { query: "open invoices", limit: 20, offset: 0, sort: "due" as const, includeArchived: false };
const schema = z.object({
  query: z.string().min(1),
  limit: z.number().int().min(1).max(100),
  offset: z.number().int().min(0),
  sort: z.enum(["due", "amount", "created"]),
  includeArchived: z.boolean(),
});
type Input = z.infer<typeof schema>;
const body = async (value: Input) => value.limit + value.offset;

const readTool = defineTool({
  name: "search_invoices",
  description: "Searches invoices.",
  category: "finance",
  effect: "read",
  input: schema,
  run: async (value) => ({ content: String(await body(value)) }),
});
const writeTool = defineTool({
  name: "send_invoice",
  description: "Sends an invoice.",
  category: "finance",
  effect: "external-write",
  approval: "never",
  overrideReason: "benchmark: measures the idempotency path, not parking",
  input: schema,
  run: async (value) => ({ content: String(await body(value)) }),
});

const directory = mkdtempSync(join(tmpdir(), "toolreg-bench-"));
try {
  const readSeam = createSeam({
    registry: new ToolRegistry([readTool]).view(),
    stores: createMemoryStores(),
  });
  const readContext = createExecutionContext({
    tenantId: "t",
    principalId: "p",
    runId: "r",
    toolCallId: "c",
  });

  // The baseline for writes: what one claim costs at the least, one prepared insert of an idempotency
  // row (the store's own table, in a file of its own) into a WAL file, outside any transaction.
  const bare = openDatabase(join(directory, "bare.db"));
  const insert = bare.prepare(
    `INSERT INTO idempotency (tenant_id, key, fingerprint, tool_name, status, claim_id, envelope, lease_until,
       created_at, updated_at, retain_until) VALUES (?, ?, ?, 'send_invoice', 'in_progress', ?, NULL, ?, ?, ?, ?)`,
  );

  const stores = openSqliteStores(join(directory, "seam.db"));
  const writeSeam = createSeam({ registry: new ToolRegistry([writeTool]).view(), stores });
  const writeContext = (key: string) =>
    createExecutionContext({
      tenantId: "t",
      principalId: "p",
      runId: "r",
      toolCallId: "c",
      idempotencyKey: key,
    });
  const replayContext = writeContext("replayed-key");
  await writeSeam.call(replayContext, "send_invoice", input);

  const medians = await measureInterleaved({
    plain: { batch: 2_000, call: () => body(input) },
    zod: {
      batch: 2_000,
      call: async () => {
        const parsed = schema.safeParse(input);
        if (parsed.success) await body(parsed.data);
      },
    },
    seamRead: { batch: 2_000, call: () => readSeam.call(readContext, "search_invoices", input) },
    sqliteClaim: {
      batch: 200,
      call: (i) => insert.run("t", `k${i}`, "f".repeat(64), `claim-${i}`, i + 60_000, i, i, i + 86_400_000),
    },
    seamWrite: { batch: 200, call: (i) => writeSeam.call(writeContext(`w${i}`), "send_invoice", input) },
    seamReplay: { batch: 200, call: () => writeSeam.call(replayContext, "send_invoice", input) },
  });
  bare.close();
  stores.close();

  const figures = {
    plain_ns: Math.round(medians.plain),
    zod_ns: Math.round(medians.zod),
    seam_read_ns: Math.round(medians.seamRead),
    sqlite_claim_ns: Math.round(medians.sqliteClaim),
    seam_write_ns: Math.round(medians.seamWrite),
    seam_replay_ns: Math.round(medians.seamReplay),
    read_over_zod: Number((medians.seamRead / medians.zod).toFixed(2)),
    write_over_claim: Number((medians.seamWrite / medians.sqliteClaim).toFixed(2)),
  };
  if (process.argv.includes("--json")) {
    console.log(JSON.stringify(figures));
  } else {
    for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(18)} ${value}`);
  }
} finally {
  rmSync(directory, { recursive: true, force: true });
}
