/** @module The PostgreSQL audit trail: reads' events go in together, every other event as it is recorded. */
import pg from "pg";
import { describe, expect, it } from "vitest";
import { POSTGRES_URL, withScratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import type { AuditEvent } from "../../ports/stores.js";

const reachable = await postgresAvailable("audit write-behind");

const eventOf = (
  id: string,
  effect: AuditEvent["effect"],
  kind: AuditEvent["kind"] = "tool-call",
): AuditEvent => ({
  tenantId: "acme",
  id,
  at: Date.now(),
  kind,
  actor: "agent",
  runId: "run",
  toolCallId: id,
  tool: effect === "read" ? "calculate" : "send_email",
  toolVersion: "1.0.0",
  effect,
  outcome: "ok",
  durationMs: 1,
  approvalId: undefined,
  idempotencyKey: undefined,
  approval: undefined,
  message: undefined,
});

/**
 * A reader of the ids in the schema's audit table, in the order they went in, on a connection of its
 * own: connected up front where a test must look within the store's brief hold of reads' events.
 */
async function auditReader(schema: string) {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  return {
    ids: async () =>
      (await client.query<{ id: string }>(`SELECT id FROM ${schema}.audit ORDER BY seq`)).rows.map(
        (row) => row.id,
      ),
    end: () => client.end(),
  };
}

async function stored(schema: string): Promise<string[]> {
  const reader = await auditReader(schema);
  try {
    return await reader.ids();
  } finally {
    await reader.end();
  }
}

describe.runIf(reachable)("the PostgreSQL audit trail", () => {
  it("holds reads' events back briefly and writes every other event, after them, as it is recorded", () =>
    withScratchSchema(async (scratch) => {
      const { audit, schema } = scratch.stores;
      // Connected before the reads are recorded: connecting on a busy machine can outlast the hold.
      const reader = await auditReader(schema);
      try {
        await audit.record(eventOf("read-1", "read"));
        await audit.record(eventOf("read-2", "read"));
        expect(await reader.ids()).toEqual([]);
      } finally {
        await reader.end();
      }
      await audit.record(eventOf("decision", undefined, "approval-decision"));
      // The write went in at once, and the reads waiting went in before it.
      expect(await stored(schema)).toEqual(["read-1", "read-2", "decision"]);
      await audit.record(eventOf("read-3", "read"));
      await expect
        .poll(() => stored(schema), { timeout: 1_000, interval: 10 })
        .toEqual(["read-1", "read-2", "decision", "read-3"]);
    }));

  it("keeps reads' events it cannot write, says why, and writes them once it can", () =>
    withScratchSchema(async (scratch) => {
      const { audit, schema, pool } = scratch.stores;
      await pool.query(`ALTER TABLE ${schema}.audit RENAME TO audit_away`);
      await audit.record(eventOf("read-1", "read"));
      await expect(audit.flush()).rejects.toThrow();
      expect(audit.failure()).toBeDefined();
      await pool.query(`ALTER TABLE ${schema}.audit_away RENAME TO audit`);
      await audit.flush();
      expect(audit.failure()).toBeUndefined();
      expect(await stored(schema)).toEqual(["read-1"]);
    }));

  it("writes what waits when the stores close", () =>
    withScratchSchema(async (scratch) => {
      const { schema } = scratch.stores;
      await scratch.stores.audit.record(eventOf("read-1", "read"));
      await scratch.reopen();
      expect(await stored(schema)).toEqual(["read-1"]);
    }));
});
