import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, postgresAvailable } from "../../../test/support/sql.js";
import type { ApprovalPolicy } from "../../policy/ports.js";
import type { Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { openPostgresReader, openPostgresWriter } from "./adapters/postgres.js";
import { openSqliteReader, openSqliteWriter } from "./adapters/sqlite.js";
import { sqlTools } from "./index.js";
import type { SqlDialect, SqlReader, SqlWriter } from "./sql-port.js";

const allow: ApprovalPolicy = { decide: () => ({ decision: "allow", reason: "test" }) };

interface Setup {
  reader: SqlReader;
  writer: SqlWriter;
  /** Reads what is really in the database, outside the tools. */
  count(where: string): Promise<number>;
  close(): Promise<void>;
}

function approvalIdOf(envelope: Envelope): string {
  if (envelope.ok || envelope.error.code !== "approval_required") {
    throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  }
  return envelope.error.details?.approvalId as string;
}

const fakeReader = { dialect: "sqlite" } as SqlReader;
const fakeWriter = { dialect: "sqlite" } as SqlWriter;

describe("sqlTools wiring", () => {
  it("sql_query and sql_schema exist exactly with a reader, sql_write exactly with a writer", () => {
    expect(sqlTools({})).toEqual([]);
    expect(sqlTools({ sqlReader: fakeReader }).map((tool) => tool.name)).toEqual(["sql_query", "sql_schema"]);
    expect(sqlTools({ sqlWriter: fakeWriter }).map((tool) => tool.name)).toEqual(["sql_write"]);
    expect(() => sqlTools({ sqlReader: fakeReader, sqlWriter: fakeReader as unknown as SqlWriter })).toThrow(
      /own connection/,
    );
  });

  it("declares the catalogue's governance, with the overrides recorded", () => {
    const [query, schema, write] = sqlTools({ sqlReader: fakeReader, sqlWriter: fakeWriter });
    expect(query).toMatchObject({
      category: "data",
      effect: "read",
      approval: "policy",
      idempotencyKey: false,
    });
    expect(query?.overrides).toEqual([
      expect.objectContaining({ field: "approval", derived: "never", declared: "policy" }),
    ]);
    expect(schema).toMatchObject({ category: "data", effect: "read", approval: "never", overrides: [] });
    expect(write).toMatchObject({
      category: "data",
      effect: "internal-write",
      approval: "always",
      idempotencyKey: true,
    });
    expect(write?.overrides.map((override) => [override.field, override.declared])).toEqual([
      ["approval", "always"],
      ["idempotencyKey", true],
    ]);
  });
});

/** The same seam-level behaviour, for each dialect. */
function describeSqlTools(dialect: SqlDialect, open: () => Promise<Setup>): void {
  describe(`sql tools through the seam (${dialect})`, () => {
    let setup: Setup;
    beforeAll(async () => {
      setup = await open();
    });
    afterAll(async () => setup?.close());
    const p = (n: number) => (dialect === "postgres" ? `$${n}` : "?");
    const harness = (approvalPolicy: ApprovalPolicy = allow) =>
      createTestHarness(sqlTools({ sqlReader: setup.reader, sqlWriter: setup.writer }), { approvalPolicy });

    it("sql_query returns rows as objects, a text table, and the truncation", async () => {
      const { seam, context } = harness();
      const envelope = await seam.call(context(), "sql_query", {
        sql: `SELECT id, name, id AS id FROM items WHERE id <= ${p(1)} ORDER BY id`,
        params: [2],
      });
      expect(envelope).toMatchObject({
        ok: true,
        data: {
          dialect,
          rows: [
            { id: 1, name: "apple", id_2: 1 },
            { id: 2, name: "pear", id_2: 2 },
          ],
          rowCount: 2,
          truncated: false,
          stoppedBy: null,
        },
        provenance: { source: `sql_query (${dialect})`, trusted: false },
      });
      expect(envelope.ok && envelope.content).toMatch(/id \| name\s+\| id_2\n/);
      expect(envelope.ok && envelope.content).toContain("2 rows.");

      const cut = await seam.call(context(), "sql_query", {
        sql: "SELECT name FROM items ORDER BY id",
        maxRows: 1,
      });
      expect(cut).toMatchObject({
        ok: true,
        truncated: true,
        data: { rows: [{ name: "apple" }], truncated: true, stoppedBy: "maxRows" },
      });
      expect(cut.ok && cut.content).toContain("Stopped at maxRows=1: more rows exist.");
    });

    it("sql_query refuses writes, several statements and out-of-range limits before the database sees them", async () => {
      const { seam, context } = harness();
      const cases: [unknown, string | RegExp][] = [
        [{ sql: "DELETE FROM items" }, "not_a_read"],
        [{ sql: "SELECT 1; DELETE FROM items" }, "multiple_statements"],
        [{ sql: "WITH gone AS (DELETE FROM items RETURNING *) SELECT * FROM gone" }, "data_modifying"],
        [{ sql: "SELECT 1", maxRows: 1_001 }, /maxRows/],
        [{ sql: "SELECT 1", params: [{ object: true }] }, /params/],
        [{ sql: "x".repeat(20_001) }, /sql/],
      ];
      for (const [input, expected] of cases) {
        const envelope = await seam.call(context(), "sql_query", input);
        expect(envelope, JSON.stringify(input).slice(0, 80)).toMatchObject({
          ok: false,
          error: { code: "invalid_input" },
        });
        if (typeof expected === "string") {
          expect(envelope).toMatchObject({ error: { details: { rule: expected } } });
        } else expect(!envelope.ok && envelope.error.message).toMatch(expected);
      }
      expect(await setup.count("1 = 1")).toBe(3);
    });

    it("sql_query passes database errors on as invalid_input with the database's message", async () => {
      const { seam, context } = harness();
      expect(await seam.call(context(), "sql_query", { sql: "SELECT nope FROM items" })).toMatchObject({
        ok: false,
        error: { code: "invalid_input", message: expect.stringContaining("nope"), details: { dialect } },
      });
    });

    it("sql_query asks the host's policy", async () => {
      const deny: ApprovalPolicy = { decide: () => ({ decision: "deny", reason: "no SQL today" }) };
      const { seam, context } = harness(deny);
      expect(await seam.call(context(), "sql_query", { sql: "SELECT 1" })).toMatchObject({
        ok: false,
        error: { code: "approval_denied", message: expect.stringContaining("no SQL today") },
      });
    });

    it("sql_schema lists the tables and columns", async () => {
      const { seam, context } = harness();
      const envelope = await seam.call(context(), "sql_schema", {});
      expect(envelope).toMatchObject({
        ok: true,
        data: {
          dialect,
          truncated: false,
          tables: [expect.objectContaining({ name: "items", kind: "table" })],
        },
      });
      expect(envelope.ok && envelope.content).toMatch(
        /items \(table\): id \S+ primary key.*; name \S+ not null/i,
      );
    });

    it("sql_write parks for approval, then runs exactly once after approve and resume", async () => {
      const { seam, context, stores } = harness();
      const asker = context({ principalId: "alice" });
      const parked = await seam.call(asker, "sql_write", {
        sql: `INSERT INTO items (name) VALUES (${p(1)})`,
        params: ["quince"],
      });
      const id = approvalIdOf(parked);
      expect(await setup.count("name = 'quince'")).toBe(0);
      expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({
        status: "pending",
        toolName: "sql_write",
        input: { sql: expect.stringContaining("INSERT INTO items"), params: ["quince"] },
      });

      await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
      const [first, second] = await Promise.all([
        seam.resume(asker, id, { onInProgress: "wait" }),
        seam.resume(asker, id, { onInProgress: "wait" }),
      ]);
      expect(first).toMatchObject({
        ok: true,
        content: "INSERT done: 1 row affected.",
        data: { dialect, statement: "INSERT", rowsAffected: 1 },
      });
      expect(second).toEqual(first);
      expect(await seam.resume(asker, id)).toEqual(first);
      expect(await setup.count("name = 'quince'")).toBe(1);
    });

    it("sql_write refuses transaction control and several statements, even once approved", async () => {
      const { seam, context } = harness();
      const asker = context();
      const id = approvalIdOf(
        await seam.call(asker, "sql_write", { sql: "DELETE FROM items; DROP TABLE items" }),
      );
      await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
      expect(await seam.resume(asker, id)).toMatchObject({
        ok: false,
        error: { code: "invalid_input", details: { rule: "multiple_statements" } },
      });
      expect(await setup.count("1 = 1")).toBeGreaterThanOrEqual(3);
    });
  });
}

// ---------------------------------------------------------------- SQLite

describeSqlTools("sqlite", async () => {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-sql-tools-"));
  const path = join(directory, "tools.db");
  const admin = new Database(path);
  admin.exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
              INSERT INTO items (name) VALUES ('apple'), ('pear'), ('plum');`);
  const reader = openSqliteReader({ path, readOnly: true });
  const writer = openSqliteWriter({ path });
  return {
    reader,
    writer,
    count: async (where) =>
      admin.prepare(`SELECT count(*) FROM items WHERE ${where}`).pluck().get() as number,
    async close() {
      await Promise.all([reader.close(), writer.close()]);
      admin.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
});

// ---------------------------------------------------------------- PostgreSQL

const postgresUp = await postgresAvailable("SQL tool tests");

describe.skipIf(!postgresUp)("postgres", () => {
  describeSqlTools("postgres", async () => {
    const name = `toolreg_sql_tools_${process.pid}_${randomBytes(4).toString("hex")}`;
    const root = new pg.Client(ADMIN);
    await root.connect();
    await root.query(`CREATE DATABASE ${name}`);
    const config = { ...ADMIN, database: name };
    const admin = new pg.Client(config);
    await admin.connect();
    await admin.query(`CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL);
                       INSERT INTO items (name) VALUES ('apple'), ('pear'), ('plum');`);
    const reader = openPostgresReader({ connection: config, readOnly: true });
    const writer = openPostgresWriter({ connection: config });
    return {
      reader,
      writer,
      async count(where) {
        const result = await admin.query(`SELECT count(*)::int AS n FROM items WHERE ${where}`);
        return result.rows[0].n as number;
      },
      async close() {
        await Promise.all([reader.close(), writer.close(), admin.end()]);
        await root.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await root.end();
      },
    };
  });
});
