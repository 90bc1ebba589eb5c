import { randomBytes } from "node:crypto";
import Database from "better-sqlite3";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ADMIN,
  failureOf,
  LIMITS,
  postgresAvailable,
  SQLITE_ENDLESS,
  sqliteFile,
} from "../../../../test/support/sql.js";
import type { SqlDialect, SqlReader, SqlWriter } from "../sql-port.js";
import { openPostgresReader, openPostgresWriter } from "./postgres.js";
import { openSqliteReader, openSqliteWriter } from "./sqlite.js";

interface Fixture {
  reader: SqlReader;
  writer: SqlWriter;
  /** Statements that run outside the adapters, to set up and to check what actually happened. */
  admin(sql: string): Promise<unknown[][]>;
  /** A query that never yields a row: only a time limit ends it. */
  endless: string;
  close(): Promise<void>;
}

const TABLE_SQL: Record<SqlDialect, string[]> = {
  sqlite: [
    "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL, price REAL, photo BLOB)",
    "INSERT INTO items (name, price, photo) VALUES ('apple', 1.5, x'deadbeef'), ('pear', 2, NULL), ('plum', NULL, NULL)",
  ],
  postgres: [
    "CREATE TABLE items (id serial PRIMARY KEY, name text NOT NULL, price real, photo bytea)",
    "INSERT INTO items (name, price, photo) VALUES ('apple', 1.5, '\\xdeadbeef'), ('pear', 2, NULL), ('plum', NULL, NULL)",
  ],
};

/** The one suite both adapters pass. */
function describeSqlAdapter(dialect: SqlDialect, open: () => Promise<Fixture>): void {
  describe(`${dialect} adapter`, () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await open();
      for (const sql of TABLE_SQL[dialect]) await fixture.admin(sql);
    });
    afterAll(async () => fixture?.close());

    const p = (n: number) => (dialect === "postgres" ? `$${n}` : "?");

    it("reads rows in column order with names and types, binding positional parameters", async () => {
      const result = await fixture.reader.query(
        `SELECT id, name, price FROM items WHERE price > ${p(1)} ORDER BY id`,
        [1],
        LIMITS,
      );
      expect(result.columns.map((column) => column.name)).toEqual(["id", "name", "price"]);
      expect(result.columns[1]?.type?.toLowerCase()).toBe("text");
      expect(result.rows).toEqual([
        [1, "apple", 1.5],
        [2, "pear", 2],
      ]);
      expect(result).toMatchObject({ stoppedBy: null, cellsCut: 0 });
      const flag = await fixture.reader.query(
        `SELECT ${p(1)} AS flag, ${p(2)} AS absent`,
        [true, null],
        LIMITS,
      );
      expect(flag.rows[0]?.[0]).toBe(dialect === "postgres" ? "true" : 1);
      expect(flag.rows[0]?.[1]).toBeNull();
    });

    it("converts bigints and bytes to JSON-safe values", async () => {
      const result = await fixture.reader.query(
        "SELECT 9007199254740993 AS big, 42 AS small, photo FROM items WHERE name = 'apple'",
        [],
        LIMITS,
      );
      expect(result.rows[0]).toEqual(["9007199254740993", 42, "\\xdeadbeef"]);
    });

    it("stops at maxRows, reading one row more to know more exist", async () => {
      const cut = await fixture.reader.query("SELECT name FROM items ORDER BY id", [], {
        ...LIMITS,
        maxRows: 2,
      });
      expect(cut).toMatchObject({ rows: [["apple"], ["pear"]], stoppedBy: "maxRows" });
      const exact = await fixture.reader.query("SELECT name FROM items", [], { ...LIMITS, maxRows: 3 });
      expect(exact).toMatchObject({ stoppedBy: null });
      expect(exact.rows).toHaveLength(3);
      // An endless row source still ends: reading stops at the limit, it does not run the query to its end.
      const endless = await fixture.reader.query(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c",
        [],
        { ...LIMITS, maxRows: 5 },
      );
      expect(endless).toMatchObject({ rows: [[1], [2], [3], [4], [5]], stoppedBy: "maxRows" });
    });

    it("cuts long cells and stops before the total byte limit, and says so", async () => {
      const long = await fixture.reader.query(`SELECT ${p(1)} AS text`, ["é".repeat(2_000)], {
        ...LIMITS,
        maxCellBytes: 101,
      });
      const cell = long.rows[0]?.[0] as string;
      expect(Buffer.byteLength(cell)).toBeLessThanOrEqual(101);
      expect(cell.endsWith("…")).toBe(true);
      expect(long.cellsCut).toBe(1);
      const bytes = await fixture.reader.query(
        "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x, 'padding padding padding' FROM c",
        [],
        { ...LIMITS, maxRows: 1_000, maxTotalBytes: 1_000 },
      );
      expect(bytes.stoppedBy).toBe("maxTotalBytes");
      expect(bytes.rows.length).toBeGreaterThan(10);
      expect(Buffer.byteLength(JSON.stringify(bytes.rows))).toBeLessThanOrEqual(1_000);
    });

    it("the connection refuses writes even when no scan stands in the way", async () => {
      for (const sql of [
        "INSERT INTO items (name) VALUES ('intruder')",
        "UPDATE items SET name = 'changed'",
        "DELETE FROM items",
        "CREATE TABLE intruder (a integer)",
        "DROP TABLE items",
        "INSERT INTO items (name) VALUES ('intruder') RETURNING id",
      ]) {
        const failure = await failureOf(fixture.reader.query(sql, [], LIMITS));
        expect(failure.envelopeCode, sql).toBe("invalid_input");
        expect(failure.message, sql).toMatch(/readonly database|read-only transaction/);
      }
      expect(await fixture.admin("SELECT name FROM items ORDER BY id")).toEqual([
        ["apple"],
        ["pear"],
        ["plum"],
      ]);
    });

    it("reports the database's own message for a syntax error or an unknown column", async () => {
      const syntax = await failureOf(fixture.reader.query("SELEC 1", [], LIMITS));
      expect(syntax).toMatchObject({
        envelopeCode: "invalid_input",
        message: expect.stringMatching(/syntax error/),
      });
      const column = await failureOf(fixture.reader.query("SELECT nope FROM items", [], LIMITS));
      expect(column).toMatchObject({ envelopeCode: "invalid_input", message: expect.stringMatching(/nope/) });
      const table = await failureOf(fixture.reader.query("SELECT * FROM missing", [], LIMITS));
      expect(table).toMatchObject({
        envelopeCode: "invalid_input",
        message: expect.stringMatching(/missing/),
      });
    });

    it("lists tables with their columns, types, keys and nullability", async () => {
      const schema = await fixture.reader.schema({ timeoutMs: 5_000 });
      const items = schema.tables.find((table) => table.name === "items");
      expect(items).toMatchObject({ kind: "table", schema: dialect === "postgres" ? "public" : null });
      expect(items?.columns.map((column) => [column.name, column.primaryKey, column.nullable])).toEqual([
        ["id", true, dialect === "sqlite"], // SQLite reports notnull only where declared
        ["name", false, false],
        ["price", false, true],
        ["photo", false, true],
      ]);
      expect(schema.truncated).toBe(false);
    });

    it("ends a query that never yields a row as a timeout, and the next query works", async () => {
      const started = Date.now();
      const failure = await failureOf(
        fixture.reader.query(fixture.endless, [], { ...LIMITS, timeoutMs: 500 }),
      );
      const elapsed = Date.now() - started;
      expect(failure.envelopeCode).toBe("timeout");
      expect(elapsed).toBeGreaterThanOrEqual(450);
      expect(elapsed).toBeLessThan(500 + 1_500);
      expect((await fixture.reader.query("SELECT 1 AS one", [], LIMITS)).rows).toEqual([[1]]);
    });

    it("an abort stops the statement early, and the next query works", async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = Date.now();
      const failure = await failureOf(
        fixture.reader.query(fixture.endless, [], {
          ...LIMITS,
          timeoutMs: 10_000,
          signal: controller.signal,
        }),
      );
      expect(failure).toMatchObject({ envelopeCode: "timeout", details: { aborted: true } });
      expect(Date.now() - started).toBeLessThan(2_000);
      expect((await fixture.reader.query("SELECT 2 AS two", [], LIMITS)).rows).toEqual([[2]]);
    });

    it("the writer changes data on its own connection; the reader sees it and still refuses writes", async () => {
      const written = await fixture.writer.execute(
        `INSERT INTO items (name, price) VALUES (${p(1)}, ${p(2)})`,
        ["quince", 3],
        { timeoutMs: 5_000, idempotencyKey: "k1" },
      );
      expect(written).toEqual({ rowsAffected: 1 });
      expect(
        await fixture.writer.execute("UPDATE items SET price = price * 2 WHERE price IS NOT NULL", [], {
          timeoutMs: 5_000,
        }),
      ).toEqual({ rowsAffected: 3 });
      const seen = await fixture.reader.query(
        `SELECT price FROM items WHERE name = ${p(1)}`,
        ["quince"],
        LIMITS,
      );
      expect(seen.rows).toEqual([[6]]);
      const refused = await failureOf(fixture.reader.query("DELETE FROM items", [], LIMITS));
      expect(refused.envelopeCode).toBe("invalid_input");
      const bad = await failureOf(
        fixture.writer.execute("INSERT INTO items (nope) VALUES (1)", [], { timeoutMs: 5_000 }),
      );
      expect(bad.envelopeCode).toBe("invalid_input");
      const duplicate = await failureOf(
        fixture.writer.execute("INSERT INTO items (id, name) VALUES (1, 'again')", [], { timeoutMs: 5_000 }),
      );
      expect(duplicate.envelopeCode).toBe("invalid_input");
    });

    it("a writer statement past its time limit is stopped and leaves nothing behind", async () => {
      const failure = await failureOf(
        fixture.writer.execute(
          `INSERT INTO items (name) SELECT 'flood' FROM (${fixture.endless.replace(/SELECT count\(\*\)/i, "SELECT x")}) AS s`,
          [],
          { timeoutMs: 400 },
        ),
      );
      expect(failure.envelopeCode).toBe("timeout");
      expect(await fixture.admin("SELECT count(*) FROM items WHERE name = 'flood'")).toEqual([[0]]);
      expect(
        await fixture.writer.execute("DELETE FROM items WHERE name = 'quince'", [], { timeoutMs: 5_000 }),
      ).toEqual({
        rowsAffected: 1,
      });
    });
  });
}

// ---------------------------------------------------------------- SQLite

describeSqlAdapter("sqlite", async () => {
  const file = sqliteFile();
  const reader = openSqliteReader({ path: file.path, readOnly: true });
  const writer = openSqliteWriter({ path: file.path });
  const admin = new Database(file.path);
  return {
    reader,
    writer,
    endless: SQLITE_ENDLESS,
    async admin(sql) {
      const statement = admin.prepare(sql);
      if (!statement.reader) {
        statement.run();
        return [];
      }
      return statement.raw(true).all() as unknown[][];
    },
    async close() {
      await Promise.all([reader.close(), writer.close()]);
      admin.close();
      file.remove();
    },
  };
});

// ---------------------------------------------------------------- PostgreSQL

const postgresUp = await postgresAvailable("adapter tests");

/** A database of its own for this file's run, so parallel runs never collide. */
async function scratchDatabase(): Promise<{ config: pg.ClientConfig; drop(): Promise<void> }> {
  const name = `toolreg_sql_${process.pid}_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client(ADMIN);
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  return {
    config: { ...ADMIN, database: name },
    async drop() {
      const again = new pg.Client(ADMIN);
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}

const PG_ENDLESS = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

describe.skipIf(!postgresUp)("postgres", () => {
  describeSqlAdapter("postgres", async () => {
    const database = await scratchDatabase();
    const reader = openPostgresReader({ connection: database.config, readOnly: true });
    const writer = openPostgresWriter({ connection: database.config });
    const admin = new pg.Client(database.config);
    await admin.connect();
    return {
      reader,
      writer,
      endless: PG_ENDLESS,
      async admin(sql) {
        return (await admin.query({ text: sql, rowMode: "array" })).rows.map((row: unknown[]) =>
          row.map((cell) => (typeof cell === "string" && /^\d+$/.test(cell) ? Number(cell) : cell)),
        );
      },
      async close() {
        await Promise.all([reader.close(), writer.close(), admin.end()]);
        await database.drop();
      },
    };
  });

  describe("postgres adapter: regressions", () => {
    let database: Awaited<ReturnType<typeof scratchDatabase>>;
    beforeAll(async () => {
      database = await scratchDatabase();
      const admin = new pg.Client(database.config);
      await admin.connect();
      await admin.query("CREATE TABLE t (a integer)");
      await admin.end();
    });
    afterAll(async () => database?.drop());

    it("a reader demands readOnly: true", () => {
      // @ts-expect-error the acknowledgement is typed as the literal true
      expect(() => openPostgresReader({ connection: database.config, readOnly: false })).toThrow(
        /readOnly: true/,
      );
    });

    it("the connection itself is read-only, and a session setting cannot undo it", async () => {
      // One connection, so every call below shares whatever session state the previous left.
      const reader = openPostgresReader({ connection: database.config, readOnly: true, maxConnections: 1 });
      try {
        expect((await reader.query("SHOW default_transaction_read_only", [], LIMITS)).rows).toEqual([["on"]]);
        expect((await reader.query("SHOW transaction_read_only", [], LIMITS)).rows).toEqual([["on"]]);
        await reader.query("SET default_transaction_read_only = off", [], LIMITS);
        await reader.query("SELECT set_config('default_transaction_read_only', 'off', false)", [], LIMITS);
        expect((await reader.query("SHOW default_transaction_read_only", [], LIMITS)).rows).toEqual([["on"]]);
        // COMMIT ends the adapter's transaction early; the next statement still cannot write.
        await reader.query("COMMIT", [], LIMITS);
        const write = await failureOf(reader.query("INSERT INTO t VALUES (1)", [], LIMITS));
        expect(write.message).toMatch(/read-only transaction/);
        for (const sql of ["ROLLBACK; INSERT INTO t VALUES (1)", "SELECT 1; INSERT INTO t VALUES (1)"]) {
          const smuggled = await failureOf(reader.query(sql, [], LIMITS));
          expect(smuggled.message, sql).toMatch(/multiple commands/);
        }
        expect(await reader.query("SELECT count(*) FROM t", [], LIMITS)).toMatchObject({ rows: [[0]] });
      } finally {
        await reader.close();
      }
    });

    it("options in a connection string are kept beside the read-only ones", async () => {
      const url = `postgres://postgres@127.0.0.1:5432/${database.config.database}?options=${encodeURIComponent("-c search_path=pg_catalog")}`;
      const reader = openPostgresReader({ connection: url, readOnly: true });
      try {
        expect((await reader.query("SHOW search_path", [], LIMITS)).rows).toEqual([["pg_catalog"]]);
        expect((await reader.query("SHOW default_transaction_read_only", [], LIMITS)).rows).toEqual([["on"]]);
      } finally {
        await reader.close();
      }
    });

    it("statement_timeout ends a slow statement as a timeout", async () => {
      const reader = openPostgresReader({ connection: database.config, readOnly: true });
      try {
        const started = Date.now();
        const failure = await failureOf(
          reader.query("SELECT pg_sleep(10)", [], { ...LIMITS, timeoutMs: 300 }),
        );
        expect(failure).toMatchObject({ envelopeCode: "timeout", details: { sqlState: "57014" } });
        expect(Date.now() - started).toBeLessThan(1_500);
      } finally {
        await reader.close();
      }
    });

    it("dates keep PostgreSQL's text, and json and arrays stay structured", async () => {
      const reader = openPostgresReader({ connection: database.config, readOnly: true });
      try {
        const result = await reader.query(
          "SELECT date '2026-01-31' AS day, '{\"a\": [1, 2]}'::jsonb AS doc, ARRAY[1, 2] AS list, 'NaN'::float8 AS nan, 1.50::numeric AS amount",
          [],
          LIMITS,
        );
        expect(result.rows).toEqual([["2026-01-31", { a: [1, 2] }, [1, 2], "NaN", "1.50"]]);
        expect(result.columns.map((column) => column.type)).toEqual([
          "date",
          "jsonb",
          "integer[]",
          "double precision",
          "numeric",
        ]);
      } finally {
        await reader.close();
      }
    });

    it("an unreachable server is an upstream_error", async () => {
      const reader = openPostgresReader({
        connection: { host: "127.0.0.1", port: 1, user: "postgres", connectionTimeoutMillis: 2_000 },
        readOnly: true,
      });
      try {
        const failure = await failureOf(reader.query("SELECT 1", [], LIMITS));
        expect(failure).toMatchObject({ envelopeCode: "upstream_error", retryable: true });
      } finally {
        await reader.close();
      }
    });
  });
});
