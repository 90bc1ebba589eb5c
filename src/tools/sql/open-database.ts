/** @module A database named by URL, `sqlite:PATH` or `postgres://…`; each driver loads only when asked for. */
import type { SqlReader, SqlWriter } from "./sql-port.js";

export async function openDatabase(url: string, mode: "read"): Promise<SqlReader>;
export async function openDatabase(url: string, mode: "write"): Promise<SqlWriter>;
export async function openDatabase(url: string, mode: "read" | "write"): Promise<SqlReader | SqlWriter> {
  if (url.startsWith("sqlite:")) {
    const { openSqliteReader, openSqliteWriter } = await import("./adapters/sqlite.js");
    const path = url.slice("sqlite:".length);
    return mode === "read" ? openSqliteReader({ path, readOnly: true }) : openSqliteWriter({ path });
  }
  if (url.startsWith("postgres://") || url.startsWith("postgresql://")) {
    const { openPostgresReader, openPostgresWriter } = await import("./adapters/postgres.js");
    return mode === "read"
      ? openPostgresReader({ connection: url, readOnly: true })
      : openPostgresWriter({ connection: url });
  }
  throw new TypeError(`${url}: expected sqlite:PATH or postgres://…`);
}
