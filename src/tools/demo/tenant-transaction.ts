/** @module One demo call's database work: its own connection, one transaction, scoped to one tenant. */
import type Database from "better-sqlite3";
import { ToolFailure } from "../../errors/tool-failure.js";
import { openDemoDatabase } from "./demo-database.js";
import { seedTenant } from "./demo-seed.js";

/** Tables whose ids are numbered per tenant; a closed list, since the name is written into the SQL. */
export type NumberedTable = "contacts" | "activities" | "tasks" | "alerts";

/**
 * Opens the file, seeds the tenant if it is new, runs `work` in an immediate transaction and closes again.
 * A connection per call keeps no handle open between calls, so deleting the file resets the demo.
 */
export function inTenantTransaction<T>(
  path: string,
  tenantId: string,
  work: (db: Database.Database) => T,
): T {
  let db: Database.Database;
  try {
    db = openDemoDatabase(path);
  } catch (error) {
    throw new ToolFailure("upstream_error", (error as Error).message, {
      retryable: isBusy(error),
      cause: error,
    });
  }
  try {
    // Immediate even for reads: seeding a new tenant writes, and a lock taken late could fail as busy.
    return db
      .transaction(() => {
        seedTenant(db, tenantId);
        return work(db);
      })
      .immediate();
  } catch (error) {
    if (isBusy(error)) {
      throw new ToolFailure("upstream_error", "the demo database is busy; try again shortly", {
        retryable: true,
        cause: error,
      });
    }
    throw error;
  } finally {
    db.close();
  }
}

/** The next id in `table` for this tenant; safe because the caller holds the write lock. */
export function nextId(db: Database.Database, table: NumberedTable, tenantId: string): number {
  const { next } = db
    .prepare(`SELECT coalesce(max(id), 0) + 1 AS next FROM ${table} WHERE tenant_id = ?`)
    .get(tenantId) as { next: number };
  return next;
}

function isBusy(error: unknown): boolean {
  const cause = error instanceof Error && error.cause !== undefined ? error.cause : error;
  const code = (cause as { code?: unknown } | null)?.code;
  return typeof code === "string" && code.startsWith("SQLITE_BUSY");
}
