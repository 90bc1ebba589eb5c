/**
 * @module PostgreSQL toolkit records. Each write is one statement: of adds of one key on any instances one
 * inserts, and of updates over one version one matches (the others re-read the row it wrote and do not).
 */
import type pg from "pg";
import {
  checkedRecordData,
  parseRecordCursor,
  recordPage,
  recordPageSize,
  type ToolkitRecordOwner,
  type ToolkitRecordStore,
} from "../../ports/toolkit-record-store.js";
import {
  TOOLKIT_RECORD_COLUMNS,
  type ToolkitRecordRow,
  toolkitRecordOf,
} from "../sql/toolkit-record-rows.js";

const ownerOf = ({ toolkit, tenantId, principalId }: ToolkitRecordOwner) => [toolkit, tenantId, principalId];
const OF_OWNER = "toolkit = $1 AND tenant_id = $2 AND principal_id = $3";

/** The toolkit record store in the quoted `schema` (migrated). */
export function createPostgresToolkitRecordStore(pool: pg.Pool, schema: string): ToolkitRecordStore {
  const table = `${schema}.toolkit_records`;
  const newestFirst = "ORDER BY created_at DESC, id DESC";
  return {
    async add({ at, data, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      const { rowCount } = await pool.query(
        `INSERT INTO ${table} (toolkit, tenant_id, principal_id, id, created_at, updated_at, version, data)
         VALUES ($1, $2, $3, $4, $5, $5, 1, $6) ON CONFLICT DO NOTHING`,
        [...ownerOf(key), key.id, at, json],
      );
      return rowCount === 1;
    },
    async update({ at, data, version, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      const { rowCount } = await pool.query(
        `UPDATE ${table} SET data = $6, updated_at = $7, version = version + 1
         WHERE ${OF_OWNER} AND id = $4 AND version = $5`,
        [...ownerOf(key), key.id, version, json, at],
      );
      return rowCount === 1;
    },
    async get(key) {
      const { rows } = await pool.query<ToolkitRecordRow>(
        `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM ${table} WHERE ${OF_OWNER} AND id = $4`,
        [...ownerOf(key), key.id],
      );
      return rows[0] && toolkitRecordOf(key, rows[0]);
    },
    async list({ limit, after, ...owner }) {
      const size = recordPageSize(limit);
      const from = parseRecordCursor(after);
      const { rows } = from
        ? await pool.query<ToolkitRecordRow>(
            `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM ${table}
             WHERE ${OF_OWNER} AND (created_at < $4 OR (created_at = $4 AND id < $5)) ${newestFirst} LIMIT $6`,
            [...ownerOf(owner), from.createdAt, from.id, size + 1],
          )
        : await pool.query<ToolkitRecordRow>(
            `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM ${table} WHERE ${OF_OWNER} ${newestFirst} LIMIT $4`,
            [...ownerOf(owner), size + 1],
          );
      return recordPage(
        rows.map((row) => toolkitRecordOf(owner, row)),
        size,
      );
    },
    async purge({ before }) {
      return (await pool.query(`DELETE FROM ${table} WHERE created_at < $1`, [before])).rowCount ?? 0;
    },
  };
}
