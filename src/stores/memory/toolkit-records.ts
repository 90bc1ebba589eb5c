/** @module The reference store of toolkits' own records, in process memory. */
import {
  checkedRecordData,
  parseRecordCursor,
  recordPage,
  recordPageSize,
  type ToolkitRecord,
  type ToolkitRecordKey,
  type ToolkitRecordOwner,
  type ToolkitRecordStore,
} from "../../ports/toolkit-record-store.js";

export function createMemoryToolkitRecordStore(): ToolkitRecordStore {
  const records = new Map<string, ToolkitRecord & { json: string }>();
  // A JSON array cannot collide the way joined strings could.
  const ownerOf = ({ toolkit, tenantId, principalId }: ToolkitRecordOwner) =>
    JSON.stringify([toolkit, tenantId, principalId]);
  const keyOf = (key: ToolkitRecordKey) => JSON.stringify([ownerOf(key), key.id]);
  const copy = ({ json, ...record }: ToolkitRecord & { json: string }): ToolkitRecord => ({
    ...record,
    data: JSON.parse(json),
  });
  return {
    async add({ at, data, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      if (records.has(keyOf(key))) return false;
      records.set(keyOf(key), { ...key, createdAt: at, updatedAt: at, version: 1, data: undefined, json });
      return true;
    },
    async update({ at, data, version, ...key }) {
      const json = checkedRecordData({ id: key.id, data });
      const kept = records.get(keyOf(key));
      if (!kept || kept.version !== version) return false;
      records.set(keyOf(key), { ...kept, updatedAt: at, version: version + 1, json });
      return true;
    },
    async get(key) {
      const kept = records.get(keyOf(key));
      return kept ? copy(kept) : undefined;
    },
    async list({ limit, after, ...owner }) {
      const from = parseRecordCursor(after);
      const size = recordPageSize(limit);
      const owned = [...records.values()]
        .filter((record) => ownerOf(record) === ownerOf(owner))
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
        .filter(
          (record) =>
            !from ||
            record.createdAt < from.createdAt ||
            (record.createdAt === from.createdAt && record.id < from.id),
        );
      return recordPage(owned.slice(0, size + 1).map(copy), size);
    },
    async purge({ before }) {
      let purged = 0;
      for (const [key, record] of records) {
        if (record.createdAt >= before) continue;
        records.delete(key);
        purged++;
      }
      return purged;
    },
  };
}
