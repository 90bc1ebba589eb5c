/** @module Opens the SQLite file the server's stores share and adds the `auth_` tables to it. */
import Database from "better-sqlite3";

/**
 * `IF NOT EXISTS` rather than a migration: `PRAGMA user_version` belongs to the stores' migrations in the same
 * file. Hashes are 32-byte BLOBs; the CSRF token is kept plain because it opens nothing without the session id.
 * No secondary indexes: keys are few, and tokens and sessions are purged as they expire.
 */
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS auth_keys (
    id           TEXT    NOT NULL PRIMARY KEY,
    secret_hash  BLOB    NOT NULL CHECK (length(secret_hash) = 32),
    tenant_id    TEXT    NOT NULL,
    principal_id TEXT    NOT NULL,
    scopes       TEXT    NOT NULL,
    mode         TEXT    NOT NULL CHECK (mode IN ('active', 'gated', 'disabled')),
    operator     INTEGER NOT NULL CHECK (operator IN (0, 1)),
    label        TEXT,
    created_at   INTEGER NOT NULL,
    revoked_at   INTEGER
  );
  CREATE TABLE IF NOT EXISTS auth_login_tokens (
    token_hash BLOB    NOT NULL PRIMARY KEY,
    key_id     TEXT    NOT NULL REFERENCES auth_keys (id),
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS auth_sessions (
    session_hash BLOB    NOT NULL PRIMARY KEY,
    key_id       TEXT    NOT NULL REFERENCES auth_keys (id),
    csrf_token   TEXT    NOT NULL,
    expires_at   INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS auth_grant_tokens (
    token_hash BLOB    NOT NULL PRIMARY KEY,
    kind       TEXT    NOT NULL CHECK (kind IN ('code', 'refresh')),
    key_id     TEXT    NOT NULL REFERENCES auth_keys (id),
    payload    TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    used_at    INTEGER
  ) WITHOUT ROWID;
  CREATE TABLE IF NOT EXISTS auth_oauth_clients (
    client_id  TEXT    NOT NULL PRIMARY KEY,
    metadata   TEXT    NOT NULL,
    created_at INTEGER NOT NULL
  ) WITHOUT ROWID;
`;

/** Added after the tables first shipped, so a file made before has them added once. */
function addLaterColumns(db: Database.Database): void {
  const has = (table: string, name: string) =>
    db
      .prepare<[], { name: string }>(`PRAGMA table_info(${table})`)
      .all()
      .some((column) => column.name === name);
  if (!has("auth_keys", "valid_until")) db.exec("ALTER TABLE auth_keys ADD COLUMN valid_until INTEGER");
  // When a user first consented to the client; never-used clients are pruned.
  if (!has("auth_oauth_clients", "used_at"))
    db.exec("ALTER TABLE auth_oauth_clients ADD COLUMN used_at INTEGER");
}

/** Opens (creating if needed) the file at `path` in WAL mode with the auth tables present. */
export function openAuthDatabase(path: string): Database.Database {
  const db = new Database(path);
  try {
    // First, so a file another process is creating or migrating is waited for rather than failed on.
    db.pragma("busy_timeout = 5000");
    // The server's other connections to this file read beside one writer; NORMAL is crash-safe under WAL.
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = NORMAL");
    db.pragma("foreign_keys = ON");
    // Immediate, so two processes starting on a fresh file create the tables one after the other.
    db.transaction(() => {
      db.exec(SCHEMA);
      addLaterColumns(db);
    }).immediate();
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}
