/**
 * @module The PostgreSQL schema as an ordered list of migrations, tracked in `schema_migrations` and applied
 * under a transaction-scoped advisory lock, so several instances starting together migrate once.
 */
import type pg from "pg";

export interface PostgresMigration {
  /** Migrations are numbered 1, 2, 3 …; each is recorded once in `schema_migrations`. */
  version: number;
  name: string;
  /** The statements, with `{schema}` standing for the quoted schema name. */
  sql: string;
}

/** Append only: an applied migration is never edited, a change is a new entry. */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: "stores",
    sql: `
      CREATE TABLE {schema}.idempotency (
        tenant_id    TEXT    NOT NULL,
        key          TEXT    NOT NULL,
        fingerprint  TEXT    NOT NULL,
        tool_name    TEXT    NOT NULL,
        status       TEXT    NOT NULL CHECK (status IN ('in_progress', 'completed', 'unknown')),
        claim_id     TEXT    NOT NULL,
        envelope     JSONB,
        lease_until  BIGINT  NOT NULL,
        created_at   BIGINT  NOT NULL,
        updated_at   BIGINT  NOT NULL,
        retain_until BIGINT  NOT NULL,
        claimed_at   BIGINT  NOT NULL,
        claimed_by   TEXT    NOT NULL,
        holder       TEXT    NOT NULL,
        heartbeat_at BIGINT  NOT NULL,
        -- Whether the current claim took over a lapsed one: the claim statement returns it, since
        -- RETURNING sees only the row as written, not the state it replaced.
        took_over    BOOLEAN NOT NULL DEFAULT false,
        PRIMARY KEY (tenant_id, key)
      );
      -- Claim, completion and heartbeat go through the primary key; purging looks for completed records.
      CREATE INDEX idempotency_purgeable ON {schema}.idempotency (retain_until) WHERE status = 'completed';

      CREATE TABLE {schema}.approvals (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        seq             BIGINT  GENERATED ALWAYS AS IDENTITY,
        tool_name       TEXT    NOT NULL,
        tool_version    TEXT    NOT NULL,
        effect          TEXT    NOT NULL,
        definition_hash TEXT    NOT NULL,
        input           JSONB,
        description     TEXT    NOT NULL,
        requested_by    TEXT    NOT NULL,
        run_id          TEXT    NOT NULL,
        tool_call_id    TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        fingerprint     TEXT    NOT NULL,
        status          TEXT    NOT NULL
          CHECK (status IN ('pending', 'approved', 'denied', 'expired', 'executed', 'refused', 'interrupted')),
        created_at      BIGINT  NOT NULL,
        expires_at      BIGINT  NOT NULL,
        decided_by      TEXT,
        decided_at      BIGINT,
        note            TEXT,
        result          JSONB,
        finished_at     BIGINT,
        interruption    JSONB,
        retried_by      TEXT,
        retried_at      BIGINT,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX approvals_by_created ON {schema}.approvals (tenant_id, created_at);
      CREATE INDEX approvals_by_status ON {schema}.approvals (tenant_id, status, created_at);
      CREATE INDEX approvals_by_key ON {schema}.approvals (tenant_id, idempotency_key, created_at, seq);
      CREATE INDEX approvals_by_expiry ON {schema}.approvals (expires_at) WHERE status = 'pending';
      CREATE INDEX approvals_approved ON {schema}.approvals (decided_at) WHERE status = 'approved';

      CREATE TABLE {schema}.audit (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        -- Orders events recorded in the same millisecond the way they were recorded.
        seq             BIGINT  GENERATED ALWAYS AS IDENTITY,
        at              BIGINT  NOT NULL,
        kind            TEXT    NOT NULL,
        actor           TEXT    NOT NULL,
        run_id          TEXT,
        tool_call_id    TEXT,
        tool            TEXT    NOT NULL,
        tool_version    TEXT,
        effect          TEXT,
        outcome         TEXT    NOT NULL,
        duration_ms     DOUBLE PRECISION,
        approval_id     TEXT,
        idempotency_key TEXT,
        approval        TEXT,
        message         TEXT
      );
      CREATE INDEX audit_by_time ON {schema}.audit (tenant_id, at, seq);
    `,
  },
  {
    version: 2,
    name: "credentials, consents, pins, artifacts",
    sql: `
      -- Names a listing orders by are compared byte by byte (COLLATE "C"), as SQLite and the memory stores
      -- order them, whatever the database's locale.
      CREATE TABLE {schema}.credentials (
        tenant_id      TEXT    NOT NULL,
        -- '' for the tenant's own credential: a principal id is never empty.
        principal_id   TEXT    COLLATE "C" NOT NULL,
        ref            TEXT    COLLATE "C" NOT NULL,
        kind           TEXT    NOT NULL CHECK (kind IN ('token', 'oauth')),
        provider       TEXT    NOT NULL,
        scopes         JSONB   NOT NULL,
        account        TEXT,
        expires_at     BIGINT,
        has_refresh    BOOLEAN NOT NULL,
        -- The id of the key the secrets are sealed under (never the key), and the sealed secrets; both NULL
        -- once revoked.
        key_id         TEXT,
        sealed         TEXT,
        version        BIGINT  NOT NULL,
        connected_by   TEXT    NOT NULL,
        created_at     BIGINT  NOT NULL,
        updated_at     BIGINT  NOT NULL,
        revoked_at     BIGINT,
        revoked_reason TEXT,
        -- In listing order: get, a tenant's listing and a listing by ref all read this one index.
        PRIMARY KEY (tenant_id, ref, principal_id)
      );

      CREATE TABLE {schema}.consent_requests (
        tenant_id      TEXT    NOT NULL,
        id             TEXT    NOT NULL,
        principal_id   TEXT    NOT NULL,
        credential_ref TEXT    NOT NULL,
        provider       TEXT    NOT NULL,
        scopes         JSONB   NOT NULL,
        -- The callback knows only the state: its hash is unique across tenants.
        state_hash     TEXT    NOT NULL UNIQUE,
        -- The PKCE verifier and the authorization URL (which carries the state), sealed like credentials.
        key_id         TEXT    NOT NULL,
        sealed         TEXT    NOT NULL,
        redirect_uri   TEXT    NOT NULL,
        status         TEXT    NOT NULL CHECK (status IN ('pending', 'used')),
        created_at     BIGINT  NOT NULL,
        expires_at     BIGINT  NOT NULL,
        used_at        BIGINT,
        PRIMARY KEY (tenant_id, id)
      );
      -- A call needing consent finds the pending one it can share; housekeeping finds the expired and used.
      CREATE INDEX consent_requests_pending ON {schema}.consent_requests
        (tenant_id, principal_id, credential_ref, created_at) WHERE status = 'pending';
      CREATE INDEX consent_requests_by_expiry ON {schema}.consent_requests (expires_at);
      CREATE INDEX consent_requests_used ON {schema}.consent_requests (used_at) WHERE status = 'used';

      CREATE TABLE {schema}.parked_calls (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        consent_id      TEXT    NOT NULL,
        requested_by    TEXT    NOT NULL,
        credential_ref  TEXT    NOT NULL,
        tool_name       TEXT    NOT NULL,
        definition_hash TEXT    NOT NULL,
        input           JSONB,
        run_id          TEXT    NOT NULL,
        tool_call_id    TEXT    NOT NULL,
        idempotency_key TEXT    NOT NULL,
        fingerprint     TEXT    NOT NULL,
        caller_scopes   JSONB   NOT NULL,
        mode            TEXT    NOT NULL,
        status          TEXT    NOT NULL CHECK (status IN ('waiting', 'resumed', 'expired')),
        created_at      BIGINT  NOT NULL,
        expires_at      BIGINT  NOT NULL,
        result          JSONB,
        resumed_at      BIGINT,
        PRIMARY KEY (tenant_id, id)
      );
      -- Parking finds the call already parked under a key; a consent finds the calls waiting on it;
      -- housekeeping finds the waiting calls past their time.
      CREATE INDEX parked_calls_by_key ON {schema}.parked_calls (tenant_id, idempotency_key, created_at);
      CREATE INDEX parked_calls_waiting ON {schema}.parked_calls
        (tenant_id, requested_by, credential_ref, created_at, id) WHERE status = 'waiting';
      CREATE INDEX parked_calls_by_expiry ON {schema}.parked_calls (expires_at) WHERE status = 'waiting';

      -- The deployment's catalogue, which every tenant shares: keyed by server and tool, not by tenant.
      -- Definitions are json, not jsonb, so they come back as the upstream sent them, key order and all.
      CREATE TABLE {schema}.mcp_pins (
        server             TEXT    COLLATE "C" NOT NULL,
        tool               TEXT    COLLATE "C" NOT NULL,
        hash               TEXT    NOT NULL,
        definition         JSON    NOT NULL,
        accepted_at        BIGINT  NOT NULL,
        accepted_by        TEXT    NOT NULL,
        offered_hash       TEXT,
        offered_definition JSON,
        offered_at         BIGINT,
        PRIMARY KEY (server, tool)
      );

      -- Content-addressed per tenant: the id is the sha256 of the bytes, kept once per name.
      CREATE TABLE {schema}.artifacts (
        tenant_id  TEXT   NOT NULL,
        id         TEXT   NOT NULL,
        name       TEXT   NOT NULL,
        media_type TEXT   NOT NULL,
        size       BIGINT NOT NULL,
        bytes      BYTEA  NOT NULL,
        PRIMARY KEY (tenant_id, id, name)
      );
    `,
  },
  {
    version: 3,
    name: "auth",
    sql: `
      -- API keys, login tokens and console sessions, shared by every instance. Secrets are kept as their
      -- 32-byte SHA-256; the CSRF token is kept plain because it opens nothing without the session id.
      CREATE TABLE {schema}.auth_keys (
        id           TEXT    NOT NULL PRIMARY KEY,
        secret_hash  BYTEA   NOT NULL CHECK (length(secret_hash) = 32),
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        scopes       JSONB   NOT NULL,
        mode         TEXT    NOT NULL CHECK (mode IN ('active', 'gated', 'disabled')),
        operator     BOOLEAN NOT NULL,
        label        TEXT,
        created_at   BIGINT  NOT NULL,
        revoked_at   BIGINT
      );
      -- A tenant's keys in listing order.
      CREATE INDEX auth_keys_by_tenant ON {schema}.auth_keys (tenant_id, created_at, id);

      CREATE TABLE {schema}.auth_login_tokens (
        token_hash BYTEA  NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
        key_id     TEXT   NOT NULL REFERENCES {schema}.auth_keys (id),
        expires_at BIGINT NOT NULL,
        used_at    BIGINT
      );
      -- Revoking a key deletes its tokens and sessions.
      CREATE INDEX auth_login_tokens_by_key ON {schema}.auth_login_tokens (key_id);

      CREATE TABLE {schema}.auth_sessions (
        session_hash BYTEA  NOT NULL PRIMARY KEY CHECK (length(session_hash) = 32),
        key_id       TEXT   NOT NULL REFERENCES {schema}.auth_keys (id),
        csrf_token   TEXT   NOT NULL,
        expires_at   BIGINT NOT NULL
      );
      CREATE INDEX auth_sessions_by_key ON {schema}.auth_sessions (key_id);
      -- Every login purges the expired sessions, which pile up for a day where tokens last minutes.
      CREATE INDEX auth_sessions_by_expiry ON {schema}.auth_sessions (expires_at);
    `,
  },
  {
    version: 4,
    name: "settled notifications",
    sql: `
      -- A claim that leaves in_progress (completed, abandoned as unknown) is told on the channel
      -- "<schema>_settled", so an instance waiting on another's call hears it instead of polling.
      CREATE FUNCTION {schema}.notify_settled() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_notify(TG_TABLE_SCHEMA || '_settled', json_build_array(NEW.tenant_id, NEW.key)::text);
        RETURN NULL;
      END
      $$;
      CREATE TRIGGER idempotency_settled AFTER UPDATE OF status ON {schema}.idempotency
        FOR EACH ROW WHEN (OLD.status = 'in_progress' AND NEW.status <> 'in_progress')
        EXECUTE FUNCTION {schema}.notify_settled();
    `,
  },
  {
    version: 5,
    name: "oauth grants",
    sql: `
      -- OAuth access tokens are keys that expire; the name differs from the tokens' expires_at so that a
      -- join of keys and tokens or sessions needs no qualified names.
      ALTER TABLE {schema}.auth_keys ADD COLUMN valid_until BIGINT;

      -- Authorization codes and refresh tokens: one-time, hashed, bound to a key and to their payload.
      CREATE TABLE {schema}.auth_grant_tokens (
        token_hash BYTEA  NOT NULL PRIMARY KEY CHECK (length(token_hash) = 32),
        kind       TEXT   NOT NULL CHECK (kind IN ('code', 'refresh')),
        key_id     TEXT   NOT NULL REFERENCES {schema}.auth_keys (id),
        payload    TEXT   NOT NULL,
        expires_at BIGINT NOT NULL,
        used_at    BIGINT
      );
      CREATE INDEX auth_grant_tokens_by_key ON {schema}.auth_grant_tokens (key_id);

      CREATE TABLE {schema}.auth_oauth_clients (
        client_id  TEXT   NOT NULL PRIMARY KEY,
        metadata   TEXT   NOT NULL,
        created_at BIGINT NOT NULL
      );
    `,
  },
  {
    version: 6,
    name: "artifact provenance",
    sql: `
      -- Where an artifact's bytes came from (an imported MCP server's are untrusted and served fenced);
      -- both NULL for a first-party file and for every artifact kept before this.
      ALTER TABLE {schema}.artifacts
        ADD COLUMN provenance_source  TEXT,
        ADD COLUMN provenance_trusted BOOLEAN,
        ADD CONSTRAINT artifacts_provenance_whole
          CHECK ((provenance_source IS NULL) = (provenance_trusted IS NULL));
    `,
  },
  {
    version: 7,
    name: "oauth clients used",
    sql: `
      -- When a user first consented to a registered client; clients never used are pruned after a while.
      ALTER TABLE {schema}.auth_oauth_clients ADD COLUMN used_at BIGINT;
    `,
  },
  {
    version: 8,
    name: "principal memory",
    sql: `
      CREATE TABLE {schema}.memories (
        tenant_id    TEXT     NOT NULL,
        principal_id TEXT     NOT NULL,
        id           TEXT     NOT NULL,
        text         TEXT     NOT NULL,
        tags         TEXT[]   NOT NULL,
        -- The text and tags as English lexemes, computed on insert (a memory is never edited).
        words        TSVECTOR NOT NULL,
        created_at   BIGINT   NOT NULL,
        PRIMARY KEY (tenant_id, principal_id, id)
      );
      CREATE INDEX memories_by_owner ON {schema}.memories (tenant_id, principal_id, created_at, id);
      CREATE INDEX memories_words ON {schema}.memories USING GIN (words);
    `,
  },
  {
    version: 9,
    name: "run todo lists",
    sql: `
      -- One row per run: a write replaces the whole list and moves the revision on.
      CREATE TABLE {schema}.todo_lists (
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        run_id       TEXT    NOT NULL,
        items        JSONB   NOT NULL,
        revision     INTEGER NOT NULL,
        updated_at   BIGINT  NOT NULL,
        PRIMARY KEY (tenant_id, principal_id, run_id)
      );
      -- The purge of runs long over.
      CREATE INDEX todo_lists_by_age ON {schema}.todo_lists (updated_at);
    `,
  },
  {
    version: 10,
    name: "approval answers",
    sql: `
      -- A human's answers to a call that asked questions, written with the decision; NULL for the rest.
      ALTER TABLE {schema}.approvals ADD COLUMN answers JSONB;
    `,
  },
  {
    version: 11,
    name: "attachments",
    sql: `
      -- One row per upload; run_id NULL for an attachment of every run of its uploader.
      CREATE TABLE {schema}.attachments (
        tenant_id    TEXT    NOT NULL,
        id           TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        run_id       TEXT,
        sha256       TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        media_type   TEXT    NOT NULL,
        size         BIGINT  NOT NULL,
        created_at   BIGINT  NOT NULL,
        expires_at   BIGINT  NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX attachments_by_owner ON {schema}.attachments (tenant_id, principal_id, created_at, id);
      CREATE INDEX attachments_by_blob ON {schema}.attachments (tenant_id, sha256);
      CREATE INDEX attachments_by_expiry ON {schema}.attachments (expires_at);
      -- The bytes, once per tenant and digest, however many attachments name them.
      CREATE TABLE {schema}.attachment_blobs (
        tenant_id TEXT   NOT NULL,
        sha256    TEXT   NOT NULL,
        bytes     BYTEA  NOT NULL,
        PRIMARY KEY (tenant_id, sha256)
      );
    `,
  },
  {
    version: 12,
    name: "skills",
    sql: `
      -- One head per skill: the next version's number, never reused while the skill exists.
      CREATE TABLE {schema}.skills (
        tenant_id    TEXT    NOT NULL,
        name         TEXT    NOT NULL,
        next_version INTEGER NOT NULL,
        PRIMARY KEY (tenant_id, name)
      );
      -- Each version as written; files and the frontmatter's other fields as JSON.
      CREATE TABLE {schema}.skill_versions (
        tenant_id   TEXT    NOT NULL,
        name        TEXT    NOT NULL,
        version     INTEGER NOT NULL,
        description TEXT    NOT NULL,
        body        TEXT    NOT NULL,
        files       JSONB   NOT NULL,
        metadata    JSONB   NOT NULL,
        created_at  BIGINT  NOT NULL,
        created_by  TEXT    NOT NULL,
        PRIMARY KEY (tenant_id, name, version)
      );
    `,
  },
  {
    version: 13,
    name: "knowledge base",
    sql: `
      -- A reader sees a source when one of its subjects is in auth_subjects (&&).
      CREATE TABLE {schema}.knowledge_sources (
        tenant_id     TEXT    NOT NULL,
        id            TEXT    NOT NULL,
        title         TEXT    NOT NULL,
        kind          TEXT    NOT NULL,
        origin        TEXT    NOT NULL,
        auth_subjects TEXT[]  NOT NULL,
        -- A re-index's subjects, applied at its commit; until then a reader needs one of each.
        pending_subjects TEXT[],
        -- Counts the ingestions begun: a commit of an older one is refused.
        generation    INTEGER NOT NULL,
        model         TEXT    NOT NULL,
        content_hash  TEXT    NOT NULL,
        status        TEXT    NOT NULL,
        error         TEXT,
        chunk_count   INTEGER NOT NULL,
        indexed_at    BIGINT,
        created_at    BIGINT  NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX knowledge_sources_by_age ON {schema}.knowledge_sources (tenant_id, created_at, id);

      -- English lexemes under a GIN index; a chunk's vector is found by its text's hash.
      CREATE TABLE {schema}.knowledge_chunks (
        tenant_id TEXT     NOT NULL,
        source_id TEXT     NOT NULL,
        id        TEXT     NOT NULL,
        ordinal   INTEGER  NOT NULL,
        text      TEXT     NOT NULL,
        text_hash TEXT     NOT NULL,
        page      INTEGER,
        headings  TEXT[]   NOT NULL,
        words     TSVECTOR NOT NULL,
        PRIMARY KEY (tenant_id, id)
      );
      CREATE INDEX knowledge_chunks_by_source ON {schema}.knowledge_chunks (tenant_id, source_id);
      CREATE INDEX knowledge_chunks_words ON {schema}.knowledge_chunks USING GIN (words);

      -- float4[] (pgvector is not assumed), committed chunks' and those staged by an ingestion not yet committed.
      CREATE TABLE {schema}.knowledge_vectors (
        tenant_id TEXT     NOT NULL,
        source_id TEXT     NOT NULL,
        model     TEXT     NOT NULL,
        text_hash TEXT     NOT NULL,
        vector    FLOAT4[] NOT NULL,
        PRIMARY KEY (tenant_id, source_id, model, text_hash)
      );
    `,
  },
  {
    version: 14,
    name: "schedules",
    sql: `
      -- action and timing as JSON; key_id the API key that made it (its grant runs it); claimed_fire_at,
      -- holder and lease_until describe the occurrence a scheduler claimed and has not completed (NULL when none).
      CREATE TABLE {schema}.schedules (
        tenant_id       TEXT    NOT NULL,
        id              TEXT    NOT NULL,
        principal_id    TEXT    NOT NULL,
        key_id          TEXT,
        action          JSONB   NOT NULL,
        timing          JSONB   NOT NULL,
        status          TEXT    NOT NULL CHECK (status IN ('active', 'paused', 'cancelled', 'done')),
        next_fire_at    BIGINT ,
        fire_count      BIGINT  NOT NULL,
        last_fired_at   BIGINT ,
        last_outcome    TEXT,
        created_at      BIGINT  NOT NULL,
        claimed_fire_at BIGINT ,
        holder          TEXT,
        lease_until     BIGINT ,
        PRIMARY KEY (tenant_id, id)
      );
      -- An owner's list and count; the scheduler's due and lapsed claims.
      CREATE INDEX schedules_by_owner ON {schema}.schedules (tenant_id, principal_id, created_at);
      CREATE INDEX schedules_due ON {schema}.schedules (status, next_fire_at);
    `,
  },
  {
    version: 15,
    name: "toolkit records",
    sql: `
      -- A toolkit's own records of its calls, per toolkit, tenant and principal. data is the toolkit's JSON as
      -- text: JSONB would refuse a NUL or a lone surrogate that JSON.stringify escapes. id is compared
      -- bytewise (COLLATE "C"), so a page ends where SQLite's and the memory store's would.
      CREATE TABLE {schema}.toolkit_records (
        toolkit      TEXT    NOT NULL,
        tenant_id    TEXT    NOT NULL,
        principal_id TEXT    NOT NULL,
        id           TEXT    COLLATE "C" NOT NULL,
        created_at   BIGINT  NOT NULL,
        updated_at   BIGINT  NOT NULL,
        version      INTEGER NOT NULL,
        data         TEXT    NOT NULL,
        PRIMARY KEY (toolkit, tenant_id, principal_id, id)
      );
      -- An owner's list, newest first; retention's purge by age.
      CREATE INDEX toolkit_records_by_age ON {schema}.toolkit_records (toolkit, tenant_id, principal_id, created_at, id);
      CREATE INDEX toolkit_records_created ON {schema}.toolkit_records (created_at);
    `,
  },
];

/** `name` as a quoted identifier; only plain lower-case names are accepted, so nothing needs escaping. */
export function quoteSchema(name: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(name)) {
    throw new Error(`schema name ${JSON.stringify(name)} must be lower-case letters, digits and _`);
  }
  return `"${name}"`;
}

/** Creates the schema if needed and applies the migrations it lacks, once however many instances race. */
export async function migrate(pool: pg.Pool, schema: string): Promise<void> {
  const quoted = quoteSchema(schema);
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    // Held to the end of the transaction: a second instance waits here, then finds every version applied.
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`toolreg migrations ${schema}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (
         version    INTEGER     PRIMARY KEY,
         name       TEXT        NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
       )`,
    );
    const applied = await client.query<{ version: number }>(
      `SELECT version FROM ${quoted}.schema_migrations`,
    );
    const done = new Set(applied.rows.map((row) => row.version));
    for (const migration of POSTGRES_MIGRATIONS) {
      if (done.has(migration.version)) continue;
      await client.query(migration.sql.replaceAll("{schema}", quoted));
      await client.query(`INSERT INTO ${quoted}.schema_migrations (version, name) VALUES ($1, $2)`, [
        migration.version,
        migration.name,
      ]);
    }
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
