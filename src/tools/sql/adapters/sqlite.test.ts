import { execFile } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { failureOf, LIMITS, SQLITE_ENDLESS, sqliteFile } from "../../../../test/support/sql.js";
import { openSqliteReader, openSqliteWriter } from "./sqlite.js";

// The suite both adapters pass is in sql-adapters.test.ts; these are SQLite's own regressions.

describe("sqlite adapter: regressions", () => {
  it("a reader demands readOnly: true and an existing database file", () => {
    const file = sqliteFile();
    try {
      // @ts-expect-error the acknowledgement is typed as the literal true
      expect(() => openSqliteReader({ path: file.path, readOnly: false })).toThrow(/readOnly: true/);
      // @ts-expect-error and it is required
      expect(() => openSqliteReader({ path: file.path })).toThrow(/readOnly: true/);
      const missing = join(file.path, "..", "missing.db");
      expect(() => openSqliteReader({ path: missing, readOnly: true })).toThrow(/cannot open/);
      expect(existsSync(missing)).toBe(false);
    } finally {
      file.remove();
    }
  });

  it("turning settings off, attaching files or holding a transaction does not let a write through", async () => {
    const file = sqliteFile();
    new Database(file.path).exec("CREATE TABLE t (a integer)").close();
    const reader = openSqliteReader({ path: file.path, readOnly: true });
    const writer = openSqliteWriter({ path: file.path });
    try {
      await reader.query("PRAGMA query_only = 0", [], LIMITS);
      await reader.query("PRAGMA writable_schema = 1", [], LIMITS).catch(() => {});
      expect((await failureOf(reader.query("INSERT INTO t VALUES (1)", [], LIMITS))).message).toMatch(
        /readonly/,
      );
      const attached = join(file.path, "..", "attached.db");
      await reader.query(`ATTACH DATABASE '${attached}' AS other`, [], LIMITS).catch(() => {});
      await reader.query("CREATE TABLE other.x (a)", [], LIMITS).catch(() => {});
      expect(existsSync(attached)).toBe(false);
      // A BEGIN left open would hold a read lock into the next request and block the writer.
      await reader.query("BEGIN IMMEDIATE", [], LIMITS).catch(() => {});
      await reader.query("BEGIN", [], LIMITS);
      await reader.query("SELECT * FROM t", [], LIMITS);
      expect(await writer.execute("INSERT INTO t VALUES (1)", [], { timeoutMs: 2_000 })).toEqual({
        rowsAffected: 1,
      });
    } finally {
      await Promise.all([reader.close(), writer.close()]);
      file.remove();
    }
  });

  it("queues calls behind a runaway one, and only the runaway is stopped", async () => {
    const file = sqliteFile();
    const reader = openSqliteReader({ path: file.path, readOnly: true });
    try {
      const runaway = failureOf(reader.query(SQLITE_ENDLESS, [], { ...LIMITS, timeoutMs: 300 }));
      const queued = reader.query("SELECT 'after' AS x", [], LIMITS);
      expect((await runaway).envelopeCode).toBe("timeout");
      expect((await queued).rows).toEqual([["after"]]);
    } finally {
      await reader.close();
      file.remove();
    }
    await expect(reader.query("SELECT 1", [], LIMITS)).rejects.toThrow(/closed/);
  });

  it("an idle reader does not keep its host process alive", async () => {
    const file = sqliteFile();
    const script = join(file.path, "..", "host.mts");
    const adapter = pathToFileURL(fileURLToPath(new URL("./sqlite.ts", import.meta.url))).href;
    writeFileSync(
      script,
      `import { openSqliteReader } from ${JSON.stringify(adapter)};
       const reader = openSqliteReader({ path: ${JSON.stringify(file.path)}, readOnly: true });
       const result = await reader.query("SELECT 7 AS seven", [], { maxRows: 1, maxCellBytes: 100, maxTotalBytes: 1000, timeoutMs: 5000 });
       console.log(JSON.stringify(result.rows));`,
    );
    const tsx = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;
    try {
      const output = await new Promise<string>((resolve, reject) =>
        execFile(process.execPath, ["--import", tsx, script], { timeout: 20_000 }, (error, stdout) =>
          error ? reject(error) : resolve(stdout),
        ),
      );
      expect(output.trim()).toBe("[[7]]");
    } finally {
      file.remove();
    }
  });
});
