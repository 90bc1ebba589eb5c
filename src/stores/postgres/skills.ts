/**
 * @module PostgreSQL skills. A write runs under an advisory lock per tenant (the table, schema included,
 * names it): the head's next number is taken and the version inserted in one transaction, so writers on
 * any instances get distinct versions and the tenant's caps hold.
 */
import type pg from "pg";
import {
  checkedSkillDraft,
  SKILL_LIMITS,
  type SkillStore,
  type SkillVersion,
  skillFull,
} from "../../ports/skill-store.js";
import { underLock } from "./under-lock.js";

interface VersionRow {
  name: string;
  version: number;
  description: string;
  body: string;
  files: Record<string, string>;
  metadata: Record<string, unknown>;
  created_at: string;
  created_by: string;
}

const toVersion = (row: VersionRow): SkillVersion => ({
  name: row.name,
  version: row.version,
  description: row.description,
  body: row.body,
  files: row.files,
  metadata: row.metadata,
  // BIGINT comes back as a string.
  createdAt: Number(row.created_at),
  createdBy: row.created_by,
});

const COLUMNS = "name, version, description, body, files, metadata, created_at, created_by";

/** The skill store in the quoted `schema` (migrated). */
export function createPostgresSkillStore(pool: pg.Pool, schema: string): SkillStore {
  const heads = `${schema}.skills`;
  const table = `${schema}.skill_versions`;
  return {
    async put(tenantId, { createdBy, now, ...draft }) {
      const checked = checkedSkillDraft(draft);
      const { name } = checked;
      const lock = `toolreg skills ${table} ${JSON.stringify(tenantId)}`;
      const version = await underLock(pool, lock, async (client) => {
        const head = (
          await client.query<{ next_version: number; kept: string }>(
            `SELECT next_version, (SELECT count(*) FROM ${table} v WHERE v.tenant_id = h.tenant_id AND v.name = h.name) AS kept
             FROM ${heads} h WHERE tenant_id = $1 AND name = $2`,
            [tenantId, name],
          )
        ).rows[0];
        let next: number;
        if (head) {
          if (Number(head.kept) >= SKILL_LIMITS.versionsPerSkill) throw skillFull("versions", name);
          next = head.next_version;
          await client.query(
            `UPDATE ${heads} SET next_version = next_version + 1 WHERE tenant_id = $1 AND name = $2`,
            [tenantId, name],
          );
        } else {
          const { rows } = await client.query<{ n: string }>(
            `SELECT count(*) AS n FROM ${heads} WHERE tenant_id = $1`,
            [tenantId],
          );
          if (Number(rows[0]?.n ?? 0) >= SKILL_LIMITS.skillsPerTenant) throw skillFull("skills", name);
          next = 1;
          await client.query(`INSERT INTO ${heads} (tenant_id, name, next_version) VALUES ($1, $2, 2)`, [
            tenantId,
            name,
          ]);
        }
        await client.query(
          `INSERT INTO ${table} (tenant_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
          [
            tenantId,
            name,
            next,
            checked.description,
            checked.body,
            JSON.stringify(checked.files),
            JSON.stringify(checked.metadata),
            now,
            createdBy,
          ],
        );
        return next;
      });
      return { ...checked, version, createdAt: now, createdBy };
    },
    async get(tenantId, name, version) {
      const { rows } =
        version === undefined
          ? await pool.query<VersionRow>(
              `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND name = $2 ORDER BY version DESC LIMIT 1`,
              [tenantId, name],
            )
          : await pool.query<VersionRow>(
              `SELECT ${COLUMNS} FROM ${table} WHERE tenant_id = $1 AND name = $2 AND version = $3`,
              [tenantId, name, version],
            );
      return rows[0] ? toVersion(rows[0]) : undefined;
    },
    async list(tenantId) {
      // Names compare byte by byte, as the other adapters compare them, whatever the database's collation.
      const { rows } = await pool.query<{
        name: string;
        description: string;
        version: number;
        versions: string;
        created_at: string;
      }>(
        `SELECT DISTINCT ON (name COLLATE "C") name, description, version, created_at,
           count(*) OVER (PARTITION BY name) AS versions
         FROM ${table} WHERE tenant_id = $1
         ORDER BY name COLLATE "C", version DESC`,
        [tenantId],
      );
      return rows.map((row) => ({
        name: row.name,
        description: row.description,
        version: row.version,
        versions: Number(row.versions),
        updatedAt: Number(row.created_at),
      }));
    },
    async versions(tenantId, name) {
      const { rows } = await pool.query<{ version: number }>(
        `SELECT version FROM ${table} WHERE tenant_id = $1 AND name = $2 ORDER BY version`,
        [tenantId, name],
      );
      return rows.map((row) => row.version);
    },
    async remove(tenantId, name, version) {
      const lock = `toolreg skills ${table} ${JSON.stringify(tenantId)}`;
      return underLock(pool, lock, async (client) => {
        const removed =
          version === undefined
            ? await client.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND name = $2`, [tenantId, name])
            : await client.query(`DELETE FROM ${table} WHERE tenant_id = $1 AND name = $2 AND version = $3`, [
                tenantId,
                name,
                version,
              ]);
        await client.query(
          `DELETE FROM ${heads} h WHERE tenant_id = $1 AND name = $2
             AND NOT EXISTS (SELECT 1 FROM ${table} v WHERE v.tenant_id = h.tenant_id AND v.name = h.name)`,
          [tenantId, name],
        );
        return removed.rowCount ?? 0;
      });
    },
  };
}
