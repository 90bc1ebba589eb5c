/**
 * @module SQLite toolkit records, in the shared state file. Each write is one autocommit statement (decision
 * 0004): an add that finds its key taken and an update over a stale version change nothing, however many
 * processes share the file.
 */
import type Database from "better-sqlite3";
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

type Owner = [toolkit: string, tenantId: string, principalId: string];
type Key = [...Owner, id: string];

const ownerOf = ({ toolkit, tenantId, principalId }: ToolkitRecordOwner): Owner => [
  toolkit,
  tenantId,
  principalId,
];
const OF_OWNER = "toolkit = ? AND tenant_id = ? AND principal_id = ?";

export function createSqliteToolkitRecordStore(db: Database.Database): ToolkitRecordStore {
  const add = db.prepare<[...Key, at: number, at: number, data: string]>(
    `INSERT INTO toolkit_records (toolkit, tenant_id, principal_id, id, created_at, updated_at, version, data)
     VALUES (?, ?, ?, ?, ?, ?, 1, ?) ON CONFLICT DO NOTHING`,
  );
  const update = db.prepare<[data: string, at: number, ...Key, version: number]>(
    `UPDATE toolkit_records SET data = ?, updated_at = ?, version = version + 1
     WHERE ${OF_OWNER} AND id = ? AND version = ?`,
  );
  const get = db.prepare<Key, ToolkitRecordRow>(
    `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM toolkit_records WHERE ${OF_OWNER} AND id = ?`,
  );
  const newest = db.prepare<[...Owner, limit: number], ToolkitRecordRow>(
    `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM toolkit_records WHERE ${OF_OWNER}
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const after = db.prepare<
    [...Owner, createdAt: number, createdAt: number, id: string, limit: number],
    ToolkitRecordRow
  >(
    `SELECT ${TOOLKIT_RECORD_COLUMNS} FROM toolkit_records
     WHERE ${OF_OWNER} AND (created_at < ? OR (created_at = ? AND id < ?))
     ORDER BY created_at DESC, id DESC LIMIT ?`,
  );
  const purge = db.prepare<[before: number]>("DELETE FROM toolkit_records WHERE created_at < ?");
  return {
    async add({ at, data, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      return add.run(...ownerOf(key), key.id, at, at, json).changes === 1;
    },
    async update({ at, data, version, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      return update.run(json, at, ...ownerOf(key), key.id, version).changes === 1;
    },
    async get(key) {
      const row = get.get(...ownerOf(key), key.id);
      return row && toolkitRecordOf(key, row);
    },
    async list({ limit, after: cursor, ...owner }) {
      const size = recordPageSize(limit);
      const from = parseRecordCursor(cursor);
      const rows = from
        ? after.all(...ownerOf(owner), from.createdAt, from.createdAt, from.id, size + 1)
        : newest.all(...ownerOf(owner), size + 1);
      return recordPage(
        rows.map((row) => toolkitRecordOf(owner, row)),
        size,
      );
    },
    async purge({ before }) {
      return purge.run(before).changes;
    },
  };
}
