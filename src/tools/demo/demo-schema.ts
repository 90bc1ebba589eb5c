/** @module The demo database's tables: every row carries its tenant, and every id is numbered per tenant. */

/** Marks a file as a toolreg demo database (SQLite's `application_id` header field): "tldd". */
export const DEMO_APPLICATION_ID = 0x746c6464;

/** Bumped when the tables change; a file made by another version is refused rather than migrated. */
export const DEMO_SCHEMA_VERSION = 1;

export const DEMO_SCHEMA = `
CREATE TABLE seeded_tenants (
  tenant_id TEXT PRIMARY KEY
);

CREATE TABLE companies (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  name TEXT NOT NULL,
  industry TEXT NOT NULL,
  city TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE contacts (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  company_id INTEGER,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  email TEXT NOT NULL,
  title TEXT,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE UNIQUE INDEX contacts_email ON contacts (tenant_id, email COLLATE NOCASE);

CREATE TABLE leads (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  company_id INTEGER NOT NULL,
  contact_id INTEGER,
  title TEXT NOT NULL,
  stage TEXT NOT NULL,
  amount_usd INTEGER NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);

CREATE TABLE activities (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  contact_id INTEGER NOT NULL,
  subject TEXT NOT NULL,
  body TEXT NOT NULL,
  logged_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);

CREATE TABLE tasks (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  title TEXT NOT NULL,
  description TEXT,
  due_date TEXT,
  requested_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id)
);

CREATE TABLE alerts (
  tenant_id TEXT NOT NULL,
  id INTEGER NOT NULL,
  subject TEXT NOT NULL,
  severity TEXT NOT NULL CHECK (severity IN ('INFO', 'WARNING', 'CRITICAL')),
  detail TEXT,
  raised_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  -- The seam's key for the call: a replayed call finds its row here instead of raising a second alert.
  idempotency_key TEXT NOT NULL,
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, idempotency_key)
);
`;
