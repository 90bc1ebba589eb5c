/**
 * @module PostgreSQL attachments: the records in one table, the bytes once per tenant and digest in another
 * (bytea). Every step that adds or deletes bytes runs under the tenant's advisory lock, so two adds on any
 * instances cannot both see room in the quota, and bytes are never deleted while an add is naming them.
 */
import type pg from "pg";
import {
  type AttachmentStoreOptions,
  attachmentCaps,
  attachmentCursor,
  isAttachmentId,
  newAttachment,
  overQuota,
  refusedUpfront,
  sha256Of,
} from "../../ports/attachment-rules.js";
import {
  ATTACHMENT_LIMITS,
  type Attachment,
  type AttachmentReader,
  type AttachmentStore,
} from "../../ports/attachment-store.js";
import { encodeCursor } from "../../ports/memory-words.js";
import { underLock } from "./under-lock.js";

interface AttachmentRow {
  id: string;
  principal_id: string;
  run_id: string | null;
  sha256: string;
  name: string;
  media_type: string;
  size: number;
  created_at: number;
  expires_at: number;
}

const COLUMNS = "id, principal_id, run_id, sha256, name, media_type, size, created_at, expires_at";
// Ids compare byte by byte, as the other adapters compare them, whatever the database's collation.
const NEWEST_FIRST = `created_at DESC, id COLLATE "C" DESC`;
// The reader's own ($1 tenant, $2 principal), of its run ($3) or of every run, unexpired at $4.
const READABLE =
  "t.tenant_id = $1 AND t.principal_id = $2 AND (t.run_id IS NULL OR t.run_id = $3) AND t.expires_at > $4";

const toAttachment = (row: AttachmentRow): Attachment => ({
  id: row.id,
  sha256: row.sha256,
  name: row.name,
  mediaType: row.media_type,
  size: row.size,
  principalId: row.principal_id,
  ...(row.run_id === null ? {} : { runId: row.run_id }),
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

/** The attachment store in the quoted `schema` (migrated). */
export function createPostgresAttachmentStore(
  pool: pg.Pool,
  schema: string,
  options: AttachmentStoreOptions = {},
): AttachmentStore {
  const caps = attachmentCaps(options);
  const clock = options.clock ?? Date.now;
  const table = `${schema}.attachments`;
  const blobs = `${schema}.attachment_blobs`;
  // The table (schema included) names the lock: deployments in other schemas never wait on it.
  const lockOf = (tenantId: string) => `toolreg attachments ${table} ${JSON.stringify(tenantId)}`;
  const readerValues = (reader: AttachmentReader) => [
    reader.tenantId,
    reader.principalId,
    reader.runId,
    clock(),
  ];
  const unnamed = `NOT EXISTS (SELECT 1 FROM ${table} a WHERE a.tenant_id = b.tenant_id AND a.sha256 = b.sha256)`;
  /** Deletes the bytes of `tenantId` no attachment names; the caller holds the tenant's lock. */
  const dropUnnamed = async (client: pg.PoolClient, tenantId: string) =>
    (await client.query(`DELETE FROM ${blobs} b WHERE b.tenant_id = $1 AND ${unnamed}`, [tenantId]))
      .rowCount ?? 0;
  /** Deletes, tenant by tenant under its lock, the bytes no attachment names; how many went. */
  const dropEveryUnnamed = async () => {
    const { rows } = await pool.query<{ tenant_id: string }>(
      `SELECT DISTINCT tenant_id FROM ${blobs} b WHERE ${unnamed}`,
    );
    let dropped = 0;
    for (const { tenant_id } of rows)
      dropped += await underLock(pool, lockOf(tenant_id), (client) => dropUnnamed(client, tenant_id));
    return dropped;
  };
  return {
    async add(owner, { name, mediaType, bytes, now, retentionMs }) {
      const refused = refusedUpfront(name, bytes, caps);
      if (refused) return refused;
      const attachment = newAttachment(owner, {
        name,
        mediaType,
        sha256: sha256Of(bytes),
        size: bytes.byteLength,
        now,
        ...(retentionMs === undefined ? {} : { retentionMs }),
      });
      const over = await underLock(pool, lockOf(owner.tenantId), async (client) => {
        // Both sums under the tenant's lock, in the step that inserts: two adds cannot both see room.
        const { rows } = await client.query<{ bytes: string; own: string }>(
          `SELECT coalesce(sum(size), 0)::bigint AS bytes,
                  coalesce(sum(size) FILTER (WHERE principal_id = $2), 0)::bigint AS own
             FROM ${table} WHERE tenant_id = $1`,
          [owner.tenantId, owner.principalId],
        );
        const over = overQuota(
          caps,
          { tenant: Number(rows[0]?.bytes ?? 0), principal: Number(rows[0]?.own ?? 0) },
          attachment.size,
        );
        if (over) return over;
        await client.query(
          `INSERT INTO ${blobs} (tenant_id, sha256, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING`,
          [owner.tenantId, attachment.sha256, Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)],
        );
        await client.query(
          `INSERT INTO ${table} (tenant_id, ${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
          [
            owner.tenantId,
            attachment.id,
            attachment.principalId,
            attachment.runId ?? null,
            attachment.sha256,
            attachment.name,
            attachment.mediaType,
            attachment.size,
            attachment.createdAt,
            attachment.expiresAt,
          ],
        );
        return undefined;
      });
      return over ?? { added: true, attachment };
    },
    async list(reader, { limit, after }) {
      const from = after === undefined ? undefined : attachmentCursor(after);
      const size = Math.max(1, Math.min(limit, ATTACHMENT_LIMITS.listPage));
      const { rows } = await pool.query<AttachmentRow>(
        `SELECT ${COLUMNS} FROM ${table} t WHERE ${READABLE}
           AND ($5::bigint IS NULL OR created_at < $5 OR (created_at = $5 AND id COLLATE "C" < $6::text))
         ORDER BY ${NEWEST_FIRST} LIMIT $7`,
        [...readerValues(reader), from?.createdAt ?? null, from?.id ?? null, size + 1],
      );
      const attachments = rows.slice(0, size).map(toAttachment);
      const last = attachments[attachments.length - 1];
      return rows.length > size && last ? { attachments, next: encodeCursor(last) } : { attachments };
    },
    async read(reader, id) {
      if (!isAttachmentId(id)) return undefined;
      const { rows } = await pool.query<AttachmentRow & { bytes: Buffer }>(
        `SELECT t.*, b.bytes FROM ${table} t
           JOIN ${blobs} b ON b.tenant_id = t.tenant_id AND b.sha256 = t.sha256
         WHERE ${READABLE} AND t.id = $5`,
        [...readerValues(reader), id],
      );
      const row = rows[0];
      return row && { attachment: toAttachment(row), bytes: new Uint8Array(row.bytes) };
    },
    async remove(reader, id) {
      if (!isAttachmentId(id)) return false;
      return underLock(pool, lockOf(reader.tenantId), async (client) => {
        const { rowCount } = await client.query(`DELETE FROM ${table} t WHERE ${READABLE} AND t.id = $5`, [
          ...readerValues(reader),
          id,
        ]);
        if (rowCount !== 1) return false;
        await dropUnnamed(client, reader.tenantId);
        return true;
      });
    },
    async purgeExpired({ now }) {
      const { rowCount } = await pool.query(`DELETE FROM ${table} WHERE expires_at <= $1`, [now]);
      await dropEveryUnnamed();
      return rowCount ?? 0;
    },
    async reconcile() {
      // A record without its bytes: only a hand-edited database can hold one, since both go in together.
      const { rowCount } = await pool.query(
        `DELETE FROM ${table} t WHERE NOT EXISTS
           (SELECT 1 FROM ${blobs} b WHERE b.tenant_id = t.tenant_id AND b.sha256 = t.sha256)`,
      );
      return { orphanBlobs: await dropEveryUnnamed(), missingBlobs: rowCount ?? 0 };
    },
  };
}
