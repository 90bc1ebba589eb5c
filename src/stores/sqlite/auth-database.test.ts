import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { openAuthDatabase } from "./auth-database.js";
import { MIGRATIONS, openSqliteStores } from "./index.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function temporaryFile(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-auth-db-"));
  directories.push(directory);
  return join(directory, "server.db");
}

const tablesOf = (path: string) => {
  const db = openAuthDatabase(path);
  try {
    return db
      .prepare<[], string>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
      .pluck()
      .all();
  } finally {
    db.close();
  }
};

describe("openAuthDatabase", () => {
  it("opens in WAL mode with a busy timeout and creates the auth tables, again without harm", () => {
    const path = temporaryFile();
    const db = openAuthDatabase(path);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(db.pragma("busy_timeout", { simple: true })).toBeGreaterThan(0);
    expect(db.pragma("user_version", { simple: true })).toBe(0);
    db.close();
    expect(tablesOf(path)).toEqual([
      "auth_grant_tokens",
      "auth_keys",
      "auth_login_tokens",
      "auth_oauth_clients",
      "auth_sessions",
    ]);
  });

  it("adds key expiry to a file made before it, keeping its keys, once", () => {
    const path = temporaryFile();
    const old = new Database(path);
    old.exec(`CREATE TABLE auth_keys (
      id TEXT NOT NULL PRIMARY KEY, secret_hash BLOB NOT NULL, tenant_id TEXT NOT NULL, principal_id TEXT NOT NULL,
      scopes TEXT NOT NULL, mode TEXT NOT NULL, operator INTEGER NOT NULL, label TEXT, created_at INTEGER NOT NULL,
      revoked_at INTEGER)`);
    old
      .prepare(
        "INSERT INTO auth_keys VALUES ('k1', zeroblob(32), 'acme', 'ops', '[]', 'active', 1, NULL, 1, NULL)",
      )
      .run();
    old.close();
    for (let open = 0; open < 2; open++) {
      const db = openAuthDatabase(path);
      expect(db.prepare("SELECT id, valid_until FROM auth_keys").all()).toEqual([
        { id: "k1", valid_until: null },
      ]);
      db.close();
    }
  });

  it("adds clients' first use to a file made before it, keeping its clients, once", () => {
    const path = temporaryFile();
    const old = new Database(path);
    old.exec(
      "CREATE TABLE auth_oauth_clients (client_id TEXT NOT NULL PRIMARY KEY, metadata TEXT NOT NULL, created_at INTEGER NOT NULL)",
    );
    old.prepare("INSERT INTO auth_oauth_clients VALUES ('c1', '{}', 1)").run();
    old.close();
    for (let open = 0; open < 2; open++) {
      const db = openAuthDatabase(path);
      expect(db.prepare("SELECT client_id, used_at FROM auth_oauth_clients").all()).toEqual([
        { client_id: "c1", used_at: null },
      ]);
      db.close();
    }
  });

  it("shares a file with the server's other stores, before or after their migrations", () => {
    for (const authFirst of [true, false]) {
      const path = temporaryFile();
      if (authFirst) openAuthDatabase(path).close();
      const stores = openSqliteStores(path);
      if (!authFirst) openAuthDatabase(path).close();
      expect(stores.database.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
      stores.close();
      expect(tablesOf(path)).toEqual([
        "approvals",
        "attachments",
        "audit",
        "auth_grant_tokens",
        "auth_keys",
        "auth_login_tokens",
        "auth_oauth_clients",
        "auth_sessions",
        "consent_requests",
        "credentials",
        "idempotency",
        "knowledge_chunks",
        "knowledge_chunks_fts",
        "knowledge_chunks_fts_config",
        "knowledge_chunks_fts_data",
        "knowledge_chunks_fts_docsize",
        "knowledge_chunks_fts_idx",
        "knowledge_sources",
        "knowledge_vectors",
        "mcp_pins",
        "memories",
        "memories_fts",
        "memories_fts_config",
        "memories_fts_data",
        "memories_fts_docsize",
        "memories_fts_idx",
        "parked_calls",
        "schedules",
        "skill_versions",
        "skills",
        "todo_lists",
        "toolkit_records",
      ]);
    }
  });
});
