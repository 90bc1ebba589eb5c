/**
 * @module SQLite skills, in the shared state file: a head row per skill holds the next version's number,
 * and each write takes it and inserts the version in one immediate transaction, so writers in any number
 * of processes sharing the file get distinct versions and the caps hold.
 */
import type Database from "better-sqlite3";
import {
  checkedSkillDraft,
  SKILL_LIMITS,
  type SkillStore,
  type SkillVersion,
  skillFull,
} from "../../ports/skill-store.js";

interface VersionRow {
  name: string;
  version: number;
  description: string;
  body: string;
  files: string;
  metadata: string;
  created_at: number;
  created_by: string;
}

const toVersion = (row: VersionRow): SkillVersion => ({
  name: row.name,
  version: row.version,
  description: row.description,
  body: row.body,
  files: JSON.parse(row.files) as Record<string, string>,
  metadata: JSON.parse(row.metadata) as Record<string, unknown>,
  createdAt: row.created_at,
  createdBy: row.created_by,
});

const COLUMNS = "name, version, description, body, files, metadata, created_at, created_by";

export function createSqliteSkillStore(db: Database.Database): SkillStore {
  const head = db.prepare<[string, string], { next_version: number; kept: number }>(
    `SELECT next_version, (SELECT count(*) FROM skill_versions v
       WHERE v.tenant_id = h.tenant_id AND v.name = h.name) AS kept
     FROM skills h WHERE tenant_id = ? AND name = ?`,
  );
  const count = db.prepare<[string], { n: number }>("SELECT count(*) AS n FROM skills WHERE tenant_id = ?");
  const createHead = db.prepare<[string, string]>(
    "INSERT INTO skills (tenant_id, name, next_version) VALUES (?, ?, 2)",
  );
  const advanceHead = db.prepare<[string, string]>(
    "UPDATE skills SET next_version = next_version + 1 WHERE tenant_id = ? AND name = ?",
  );
  const insert = db.prepare(
    `INSERT INTO skill_versions (tenant_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const latest = db.prepare<[string, string], VersionRow>(
    `SELECT ${COLUMNS} FROM skill_versions WHERE tenant_id = ? AND name = ? ORDER BY version DESC LIMIT 1`,
  );
  const numbered = db.prepare<[string, string, number], VersionRow>(
    `SELECT ${COLUMNS} FROM skill_versions WHERE tenant_id = ? AND name = ? AND version = ?`,
  );
  const list = db.prepare<
    [string],
    { name: string; description: string; version: number; versions: number; created_at: number }
  >(
    `SELECT v.name, v.description, v.version, v.created_at,
       (SELECT count(*) FROM skill_versions c WHERE c.tenant_id = v.tenant_id AND c.name = v.name) AS versions
     FROM skill_versions v
     WHERE v.tenant_id = ? AND v.version =
       (SELECT max(version) FROM skill_versions m WHERE m.tenant_id = v.tenant_id AND m.name = v.name)
     ORDER BY v.name`,
  );
  const versions = db.prepare<[string, string], { version: number }>(
    "SELECT version FROM skill_versions WHERE tenant_id = ? AND name = ? ORDER BY version",
  );
  const removeAll = db.prepare<[string, string]>(
    "DELETE FROM skill_versions WHERE tenant_id = ? AND name = ?",
  );
  const removeOne = db.prepare<[string, string, number]>(
    "DELETE FROM skill_versions WHERE tenant_id = ? AND name = ? AND version = ?",
  );
  const dropHeadIfEmpty = db.prepare<[string, string]>(
    `DELETE FROM skills WHERE tenant_id = ? AND name = ? AND NOT EXISTS
       (SELECT 1 FROM skill_versions v WHERE v.tenant_id = skills.tenant_id AND v.name = skills.name)`,
  );

  const put = db.transaction(
    (tenantId: string, draft: ReturnType<typeof checkedSkillDraft>, createdBy: string, now: number) => {
      const { name } = draft;
      const found = head.get(tenantId, name);
      let version: number;
      if (found) {
        if (found.kept >= SKILL_LIMITS.versionsPerSkill) throw skillFull("versions", name);
        version = found.next_version;
        advanceHead.run(tenantId, name);
      } else {
        if ((count.get(tenantId)?.n ?? 0) >= SKILL_LIMITS.skillsPerTenant) throw skillFull("skills", name);
        version = 1;
        createHead.run(tenantId, name);
      }
      const files = JSON.stringify(draft.files);
      const metadata = JSON.stringify(draft.metadata);
      insert.run(tenantId, name, version, draft.description, draft.body, files, metadata, now, createdBy);
      return version;
    },
  );
  const remove = db.transaction((tenantId: string, name: string, version?: number) => {
    const removed =
      version === undefined
        ? removeAll.run(tenantId, name).changes
        : removeOne.run(tenantId, name, version).changes;
    dropHeadIfEmpty.run(tenantId, name);
    return removed;
  });

  return {
    async put(tenantId, { createdBy, now, ...draft }) {
      const checked = checkedSkillDraft(draft);
      // Immediate: the write lock is taken before the head is read, so two writers cannot read one number.
      const version = put.immediate(tenantId, checked, createdBy, now);
      return { ...checked, version, createdAt: now, createdBy };
    },
    async get(tenantId, name, version) {
      const row = version === undefined ? latest.get(tenantId, name) : numbered.get(tenantId, name, version);
      return row ? toVersion(row) : undefined;
    },
    async list(tenantId) {
      return list.all(tenantId).map((row) => ({
        name: row.name,
        description: row.description,
        version: row.version,
        versions: row.versions,
        updatedAt: row.created_at,
      }));
    },
    async versions(tenantId, name) {
      return versions.all(tenantId, name).map((row) => row.version);
    },
    async remove(tenantId, name, version) {
      return remove.immediate(tenantId, name, version);
    },
  };
}
