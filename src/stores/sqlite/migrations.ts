/** @module The SQLite schema as an ordered list of migrations, tracked with `PRAGMA user_version`. */
import type Database from "better-sqlite3";

export interface Migration {
  /** The `user_version` the file has once this migration is applied; migrations are numbered 1, 2, 3 … */
  version: number;
  name: string;
  sql: string;
}

/** Append only: an applied migration is never edited, a change is a new entry. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "stores",
    sql: `
      CREATE TABLE idempotency (
        tenant_id    TEXT    NOT NULL,
        key          TEXT    NOT NULL,
        fingerprint  TEXT    NOT NULL,
        tool_name    TEXT    NOT NULL,
        status       TEXT    NOT NULL CHECK (status IN ('in_progress', 'completed', 'unknown')),
        claim_id     TEXT    NOT NULL,
        envelope     TEXT,
        lease_until  INTEGER NOT NULL,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        retain_until INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, key)
      ) WITHOUT ROWID;
      -- No secondary index: a claim and its completion each touch one b-tree, which is what keeps an
      -- idempotent call near the cost of a bare insert. Listing by status scans one tenant's keys and
      -- purging scans the table; both are occasional, and retention keeps the table small.

      CREATE TABLE approvals (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        tool_name       TEXT    NOT NULL,
        tool_version    TEXT    NOT NULL,
        effect          TEXT    NOT NULL,
        definition_hash TEXT    NOT NULL,
        input           TEXT,
        description     TEXT    NOT NULL,
        requested_by    TEXT    NOT NULL,
        run_id          TEXT    NOT NULL,
        tool_call_id    TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        status          TEXT    NOT NULL
          CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'executed', 'refused')),
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        decided_by      TEXT,
        decided_at      INTEGER,
        note            TEXT,
        result          TEXT,
        finished_at     INTEGER,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX approvals_by_created ON approvals (tenant_id, created_at);
      CREATE INDEX approvals_by_status ON approvals (tenant_id, status, created_at);
      CREATE INDEX approvals_by_expiry ON approvals (status, expires_at);

      CREATE TABLE audit (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        at              INTEGER NOT NULL,
        kind            TEXT    NOT NULL,
        actor           TEXT    NOT NULL,
        run_id          TEXT,
        tool_call_id    TEXT,
        tool            TEXT    NOT NULL,
        tool_version    TEXT,
        effect          TEXT,
        outcome         TEXT    NOT NULL,
        duration_ms     REAL,
        approval_id     TEXT,
        idempotency_key TEXT,
        approval        TEXT,
        message         TEXT
      );
      -- One index: an event costs two b-tree inserts. Filters other than time (tool, kind) scan a
      -- tenant's events newest first, which is what the audit views read anyway.
      CREATE INDEX audit_by_time ON audit (tenant_id, at);
    `,
  },
  {
    version: 2,
    name: "mcp pins",
    sql: `
      CREATE TABLE mcp_pins (
        server             TEXT    NOT NULL,
        tool               TEXT    NOT NULL,
        hash               TEXT    NOT NULL,
        definition         TEXT    NOT NULL,
        accepted_at        INTEGER NOT NULL,
        accepted_by        TEXT    NOT NULL,
        offered_hash       TEXT,
        offered_definition TEXT,
        offered_at         INTEGER,
        PRIMARY KEY (server, tool)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 3,
    name: "lost outcomes: claim evidence, one approval per key, interrupted approvals",
    sql: `
      ALTER TABLE idempotency ADD COLUMN claimed_at INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE idempotency ADD COLUMN claimed_by TEXT NOT NULL DEFAULT '';
      ALTER TABLE idempotency ADD COLUMN holder TEXT NOT NULL DEFAULT '';
      ALTER TABLE idempotency ADD COLUMN heartbeat_at INTEGER NOT NULL DEFAULT 0;
      UPDATE idempotency SET claimed_at = created_at, heartbeat_at = updated_at;

      -- A CHECK constraint cannot be altered in place: the table is copied into its new shape.
      CREATE TABLE approvals_v3 (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        tool_name       TEXT    NOT NULL,
        tool_version    TEXT    NOT NULL,
        effect          TEXT    NOT NULL,
        definition_hash TEXT    NOT NULL,
        input           TEXT,
        description     TEXT    NOT NULL,
        requested_by    TEXT    NOT NULL,
        run_id          TEXT    NOT NULL,
        tool_call_id    TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        fingerprint     TEXT    NOT NULL DEFAULT '',
        status          TEXT    NOT NULL
          CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'executed', 'refused', 'interrupted')),
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        decided_by      TEXT,
        decided_at      INTEGER,
        note            TEXT,
        result          TEXT,
        finished_at     INTEGER,
        interruption    TEXT,
        retried_by      TEXT,
        retried_at      INTEGER,
        PRIMARY KEY (tenant_id, id)
      );
      INSERT INTO approvals_v3 (tenant_id, id, tool_name, tool_version, effect, definition_hash, input,
        description, requested_by, run_id, tool_call_id, idempotency_key, status, created_at, expires_at,
        decided_by, decided_at, note, result, finished_at)
      SELECT tenant_id, id, tool_name, tool_version, effect, definition_hash, input, description,
        requested_by, run_id, tool_call_id, idempotency_key, status, created_at, expires_at, decided_by,
        decided_at, note, result, finished_at
      FROM approvals;
      DROP TABLE approvals;
      ALTER TABLE approvals_v3 RENAME TO approvals;
      CREATE INDEX approvals_by_created ON approvals (tenant_id, created_at);
      CREATE INDEX approvals_by_status ON approvals (tenant_id, status, created_at);
      CREATE INDEX approvals_by_expiry ON approvals (status, expires_at);
      -- Parking finds the approval already made under a call's key.
      CREATE INDEX approvals_by_key ON approvals (tenant_id, idempotency_key, created_at);
    `,
  },
  {
    version: 4,
    name: "credentials, sealed under the operator's key",
    sql: `
      CREATE TABLE credentials (
        tenant_id      TEXT    NOT NULL,
        -- '' for the tenant's own credential: a principal id is never empty.
        principal_id   TEXT    NOT NULL,
        ref            TEXT    NOT NULL,
        kind           TEXT    NOT NULL CHECK (kind IN ('token', 'oauth')),
        provider       TEXT    NOT NULL,
        scopes         TEXT    NOT NULL,
        account        TEXT,
        expires_at     INTEGER,
        has_refresh    INTEGER NOT NULL,
        -- The id of the key the secrets are sealed under (never the key), and the sealed secrets; both
        -- NULL once revoked.
        key_id         TEXT,
        sealed         TEXT,
        version        INTEGER NOT NULL,
        connected_by   TEXT    NOT NULL,
        created_at     INTEGER NOT NULL,
        updated_at     INTEGER NOT NULL,
        revoked_at     INTEGER,
        revoked_reason TEXT,
        PRIMARY KEY (tenant_id, principal_id, ref)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 5,
    name: "consents under way and the calls parked for them",
    sql: `
      CREATE TABLE consent_requests (
        tenant_id      TEXT    NOT NULL,
        id             TEXT    NOT NULL,
        principal_id   TEXT    NOT NULL,
        credential_ref TEXT    NOT NULL,
        provider       TEXT    NOT NULL,
        scopes         TEXT    NOT NULL,
        state_hash     TEXT    NOT NULL UNIQUE,
        -- The PKCE verifier and the authorization URL (which carries the state), sealed like credentials.
        key_id         TEXT    NOT NULL,
        sealed         TEXT    NOT NULL,
        redirect_uri   TEXT    NOT NULL,
        status         TEXT    NOT NULL CHECK (status IN ('pending', 'used')),
        created_at     INTEGER NOT NULL,
        expires_at     INTEGER NOT NULL,
        used_at        INTEGER,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX consent_requests_by_user ON consent_requests (tenant_id, principal_id, credential_ref, status);

      CREATE TABLE parked_calls (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        consent_id      TEXT    NOT NULL,
        requested_by    TEXT    NOT NULL,
        credential_ref  TEXT    NOT NULL,
        tool_name       TEXT    NOT NULL,
        definition_hash TEXT    NOT NULL,
        input           TEXT,
        run_id          TEXT    NOT NULL,
        tool_call_id    TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        fingerprint     TEXT    NOT NULL,
        caller_scopes   TEXT    NOT NULL,
        mode            TEXT    NOT NULL,
        status          TEXT    NOT NULL CHECK (status IN ('waiting', 'resumed', 'expired')),
        created_at      INTEGER NOT NULL,
        expires_at      INTEGER NOT NULL,
        result          TEXT,
        resumed_at      INTEGER,
        PRIMARY KEY (tenant_id, id)
      );
      -- Parking finds the call already parked under a key; a consent finds the calls waiting on it.
      CREATE INDEX parked_calls_by_key ON parked_calls (tenant_id, idempotency_key, created_at);
      CREATE INDEX parked_calls_waiting ON parked_calls (tenant_id, requested_by, credential_ref, status, created_at);
    `,
  },
  {
    version: 6,
    name: "principal memory",
    sql: `
      -- seq is the rowid the full-text index refers to; (tenant_id, principal_id, id) is what callers name.
      CREATE TABLE memories (
        seq          INTEGER PRIMARY KEY,
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        id           TEXT    NOT NULL,
        text         TEXT    NOT NULL,
        tags         TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        UNIQUE (tenant_id, principal_id, id)
      );
      CREATE INDEX memories_by_owner ON memories (tenant_id, principal_id, created_at, id);

      -- An external-content index over the text and the tags (JSON, whose punctuation tokenizes as
      -- separators), kept in step by triggers;
      -- porter stems English words, unicode61 folds case and accents elsewhere.
      CREATE VIRTUAL TABLE memories_fts USING fts5(
        text, tags, content = 'memories', content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER memories_indexed AFTER INSERT ON memories BEGIN
        INSERT INTO memories_fts (rowid, text, tags) VALUES (new.seq, new.text, new.tags);
      END;
      CREATE TRIGGER memories_unindexed AFTER DELETE ON memories BEGIN
        INSERT INTO memories_fts (memories_fts, rowid, text, tags) VALUES ('delete', old.seq, old.text, old.tags);
      END;
    `,
  },
  {
    version: 7,
    name: "run todo lists",
    sql: `
      -- One row per run: a write replaces the whole list (JSON) and moves the revision on.
      CREATE TABLE todo_lists (
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        run_id       TEXT    NOT NULL,
        items        TEXT    NOT NULL,
        revision     INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, principal_id, run_id)
      ) WITHOUT ROWID;
      -- The purge of runs long over.
      CREATE INDEX todo_lists_by_age ON todo_lists (updated_at);
    `,
  },
  {
    version: 8,
    name: "approval answers",
    sql: `
      -- A human's answers to a call that asked questions, written with the decision; NULL for the rest.
      ALTER TABLE approvals ADD COLUMN answers TEXT;
    `,
  },
  {
    version: 9,
    name: "attachments",
    sql: `
      -- One row per upload; run_id NULL for an attachment of every run of its uploader.
      CREATE TABLE attachments (
        tenant_id    TEXT    NOT NULL,
        id           TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        run_id       TEXT,
        sha256       TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        media_type   TEXT    NOT NULL,
        size         INTEGER NOT NULL,
        created_at   INTEGER NOT NULL,
        expires_at   INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX attachments_by_owner ON attachments (tenant_id, principal_id, created_at, id);
      CREATE INDEX attachments_by_blob ON attachments (tenant_id, sha256);
      CREATE INDEX attachments_by_expiry ON attachments (expires_at);
      -- The bytes are files beside the state file (<file>.attachments/<tenant digest>/<sha256>).
    `,
  },
  {
    version: 10,
    name: "skills",
    sql: `
      -- One head per skill: the next version's number, never reused while the skill exists.
      CREATE TABLE skills (
        tenant_id    TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        next_version INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, name)
      ) WITHOUT ROWID;
      -- Each version as written; files and the frontmatter's other fields as JSON.
      CREATE TABLE skill_versions (
        tenant_id   TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        description TEXT    NOT NULL,
        body        TEXT    NOT NULL,
        files       TEXT    NOT NULL,
        metadata    TEXT    NOT NULL,
        created_at  INTEGER NOT NULL,
        created_by  TEXT    NOT NULL,
        PRIMARY KEY (tenant_id, name, version)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 11,
    name: "knowledge base",
    sql: `
      -- auth_subjects is a JSON array: a reader sees a source when one of its subjects is in it.
      CREATE TABLE knowledge_sources (
        tenant_id     TEXT    NOT NULL,
        id            TEXT    NOT NULL,
        title         TEXT    NOT NULL,
        kind          TEXT    NOT NULL,
        origin        TEXT    NOT NULL,
        auth_subjects TEXT    NOT NULL,
        -- A re-index's subjects, applied at its commit; until then a reader needs one of each.
        pending_subjects TEXT,
        -- Counts the ingestions begun: a commit of an older one is refused.
        generation    INTEGER NOT NULL,
        model         TEXT    NOT NULL,
        content_hash  TEXT    NOT NULL,
        status        TEXT    NOT NULL,
        error         TEXT,
        chunk_count   INTEGER NOT NULL,
        indexed_at    INTEGER,
        created_at    INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, id)
      ) WITHOUT ROWID;
      CREATE INDEX knowledge_sources_by_age ON knowledge_sources (tenant_id, created_at, id);

      -- seq is the rowid the full-text index refers to; a chunk's vector is found by its text's hash.
      CREATE TABLE knowledge_chunks (
        seq       INTEGER PRIMARY KEY,
        tenant_id TEXT    NOT NULL,
        source_id TEXT    NOT NULL,
        id        TEXT    NOT NULL,
        ordinal   INTEGER NOT NULL,
        text      TEXT    NOT NULL,
        text_hash TEXT    NOT NULL,
        page      INTEGER,
        headings  TEXT    NOT NULL,
        UNIQUE (tenant_id, id)
      );
      CREATE INDEX knowledge_chunks_by_source ON knowledge_chunks (tenant_id, source_id);
      CREATE VIRTUAL TABLE knowledge_chunks_fts USING fts5(
        text, content = 'knowledge_chunks', content_rowid = 'seq',
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      CREATE TRIGGER knowledge_chunks_indexed AFTER INSERT ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (rowid, text) VALUES (new.seq, new.text);
      END;
      CREATE TRIGGER knowledge_chunks_unindexed AFTER DELETE ON knowledge_chunks BEGIN
        INSERT INTO knowledge_chunks_fts (knowledge_chunks_fts, rowid, text) VALUES ('delete', old.seq, old.text);
      END;

      -- float32 blobs, committed chunks' and those staged by an ingestion not yet committed.
      CREATE TABLE knowledge_vectors (
        tenant_id TEXT NOT NULL,
        source_id TEXT NOT NULL,
        model     TEXT NOT NULL,
        text_hash TEXT NOT NULL,
        vector    BLOB NOT NULL,
        PRIMARY KEY (tenant_id, source_id, model, text_hash)
      ) WITHOUT ROWID;
    `,
  },
  {
    version: 12,
    name: "schedules",
    sql: `
      -- action and timing as JSON; key_id the API key that made it (its grant runs it); claimed_fire_at,
      -- holder and lease_until describe the occurrence a scheduler claimed and has not completed (NULL when none).
      CREATE TABLE schedules (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        principal_id    TEXT    NOT NULL,
        key_id          TEXT,
        action          TEXT    NOT NULL,
        timing          TEXT    NOT NULL,
        status          TEXT    NOT NULL CHECK (status IN ('active', 'paused', 'cancelled', 'done')),
        next_fire_at    INTEGER,
        fire_count      INTEGER NOT NULL,
        last_fired_at   INTEGER,
        last_outcome    TEXT,
        created_at      INTEGER NOT NULL,
        claimed_fire_at INTEGER,
        holder          TEXT,
        lease_until     INTEGER,
        PRIMARY KEY (tenant_id, id)
      ) WITHOUT ROWID;
      -- An owner's list and count; the scheduler's due and lapsed claims.
      CREATE INDEX schedules_by_owner ON schedules (tenant_id, principal_id, created_at);
      CREATE INDEX schedules_due ON schedules (status, next_fire_at);
    `,
  },
  {
    version: 13,
    name: "toolkit records",
    sql: `
      -- A toolkit's own records of its calls, per toolkit, tenant and principal; data is the toolkit's JSON.
      -- Ids are ASCII and TEXT compares bytewise, so every adapter pages in one order.
      CREATE TABLE toolkit_records (
        toolkit      TEXT    NOT NULL,
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        id           TEXT    NOT NULL,
        created_at   INTEGER NOT NULL,
        updated_at   INTEGER NOT NULL,
        version      INTEGER NOT NULL,
        data         TEXT    NOT NULL,
        PRIMARY KEY (toolkit, tenant_id, principal_id, id)
      ) WITHOUT ROWID;
      -- An owner's list, newest first; retention's purge by age.
      CREATE INDEX toolkit_records_by_age ON toolkit_records (toolkit, tenant_id, principal_id, created_at, id);
      CREATE INDEX toolkit_records_created ON toolkit_records (created_at);
    `,
  },
];

/**
 * Applies every migration the file lacks, each in its own immediate transaction. The version is read inside
 * that transaction, so two processes opening a fresh file at once cannot both apply the same migration.
 */
export function migrate(db: Database.Database, migrations: readonly Migration[] = MIGRATIONS): number {
  const latest = migrations.length;
  migrations.forEach((migration, index) => {
    if (migration.version !== index + 1) throw new Error(`migration ${migration.name} is out of order`);
  });
  const readVersion = () => db.pragma("user_version", { simple: true }) as number;
  const applyNext = db.transaction(() => {
    const version = readVersion();
    const next = migrations[version];
    if (!next) return false;
    db.exec(next.sql);
    // PRAGMA takes no bound parameters; the version is an integer from our own list.
    db.pragma(`user_version = ${next.version}`);
    return true;
  });
  if (readVersion() > latest) {
    throw new Error(`database schema version ${readVersion()} is newer than this code knows (${latest})`);
  }
  while (applyNext.immediate()) {}
  return readVersion();
}
