/** @module What the SQL tests share: read limits, a failure catcher, a scratch SQLite file and the PostgreSQL probe. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
import { ToolFailure } from "../../src/errors/tool-failure.js";
import type { SqlReadLimits } from "../../src/tools/sql/sql-port.js";

export const LIMITS: SqlReadLimits = {
  maxRows: 100,
  maxCellBytes: 1024,
  maxTotalBytes: 64 * 1024,
  timeoutMs: 5_000,
};

/** The error a promise rejects with, as a ToolFailure (fails the test if it resolves). */
export async function failureOf(promise: Promise<unknown>): Promise<ToolFailure> {
  try {
    await promise;
  } catch (error) {
    if (ToolFailure.isInstance(error)) return error;
    throw error;
  }
  throw new Error("expected a failure, but the call succeeded");
}

export const ADMIN: pg.ClientConfig = {
  host: "127.0.0.1",
  port: 5432,
  user: "postgres",
  database: "postgres",
};

/** Whether PostgreSQL answers; under CI=true its absence is an error, elsewhere a warning and a skip. */
export async function postgresAvailable(suite: string): Promise<boolean> {
  const client = new pg.Client({ ...ADMIN, connectionTimeoutMillis: 2_000 });
  let up = true;
  try {
    await client.connect();
  } catch {
    up = false;
  } finally {
    await client.end().catch(() => {});
  }
  if (!up && process.env.CI === "true") {
    throw new Error("PostgreSQL is required under CI=true, but nothing answers on 127.0.0.1:5432");
  }
  if (!up) console.warn(`Skipping the PostgreSQL ${suite}: nothing answers on 127.0.0.1:5432.`);
  return up;
}

/** A query SQLite runs for ever, for the timeout tests. */
export const SQLITE_ENDLESS =
  "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c";

/** An empty database file in a folder of its own. */
export function sqliteFile(): { path: string; remove(): void } {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-sql-"));
  const path = join(directory, "test.db");
  new Database(path).close();
  return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}
