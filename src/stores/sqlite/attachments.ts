/**
 * @module SQLite attachments: the records in the state file, the bytes as files beside it
 * (`<directory>/<tenant digest>/<sha256>`). Every step that writes or deletes a file runs inside an immediate
 * transaction, so the file lock that orders the writers of the state file orders the files too: a purge
 * never deletes bytes an add is about to name, and two adds cannot both see room in the quota. A file is
 * written under a temporary name and renamed, so a crash never leaves half a file under its final name;
 * `reconcile` deletes what a crash leaves (a temporary file, bytes no record names) and drops a record
 * whose file is gone.
 */
import { randomBytes } from "node:crypto";
import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { join } from "node:path";
import type Database from "better-sqlite3";
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

const TEMPORARY = ".tmp-";

/** A tenant's folder: a digest of its id, so no tenant id can name a path. */
const tenantFolder = (tenantId: string) =>
  sha256Of(new TextEncoder().encode(`tenant ${tenantId}`)).slice(0, 32);

/** Where the bytes of `sha256` of `tenantId` are kept under `directory`. */
export const attachmentBlobPath = (directory: string, tenantId: string, sha256: string): string =>
  join(directory, tenantFolder(tenantId), sha256);

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

/** Writes `bytes` to `path` whole or not at all: a synced temporary file in the same folder, renamed. */
function writeWhole(path: string, folder: string, bytes: Uint8Array): void {
  mkdirSync(folder, { recursive: true });
  const temporary = join(folder, `${TEMPORARY}${randomBytes(8).toString("hex")}`);
  const descriptor = openSync(temporary, "wx");
  try {
    let written = 0;
    while (written < bytes.byteLength) written += writeSync(descriptor, bytes, written);
    fsyncSync(descriptor);
  } finally {
    closeSync(descriptor);
  }
  renameSync(temporary, path);
}

function readWhole(path: string): Uint8Array | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** The attachment store on `db`, with the bytes under `directory` (created when first needed). */
export function createSqliteAttachmentStore(
  db: Database.Database,
  directory: string,
  options: AttachmentStoreOptions = {},
): AttachmentStore {
  const caps = attachmentCaps(options);
  const clock = options.clock ?? Date.now;
  // The reader's own, of its run or of every run, not yet expired: the entitlement, in every query.
  const READABLE = `tenant_id = @tenant AND principal_id = @principal
    AND (run_id IS NULL OR run_id = @run) AND expires_at > @now`;
  const kept = db.prepare<[string, string], { tenant: number; principal: number }>(
    `SELECT coalesce(sum(size), 0) AS tenant,
            coalesce(sum(CASE WHEN principal_id = ? THEN size ELSE 0 END), 0) AS principal
       FROM attachments WHERE tenant_id = ?`,
  );
  const insert = db.prepare(
    `INSERT INTO attachments (tenant_id, ${COLUMNS})
     VALUES (@tenant, @id, @principal, @run, @sha256, @name, @mediaType, @size, @createdAt, @expiresAt)`,
  );
  const select = db.prepare<Record<string, unknown>, AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE ${READABLE} AND id = @id`,
  );
  const page = db.prepare<Record<string, unknown>, AttachmentRow>(
    `SELECT ${COLUMNS} FROM attachments WHERE ${READABLE}
       AND (@from = 0 OR created_at < @at OR (created_at = @at AND id < @after))
     ORDER BY created_at DESC, id DESC LIMIT @size`,
  );
  const removeOne = db.prepare<Record<string, unknown>, { sha256: string }>(
    `DELETE FROM attachments WHERE ${READABLE} AND id = @id RETURNING sha256`,
  );
  const removeExpired = db.prepare<[number], { tenant_id: string; sha256: string }>(
    "DELETE FROM attachments WHERE expires_at <= ? RETURNING tenant_id, sha256",
  );
  const named = db.prepare<[string, string], { one: number }>(
    "SELECT 1 AS one FROM attachments WHERE tenant_id = ? AND sha256 = ? LIMIT 1",
  );
  const everyNamed = db.prepare<[], { tenant_id: string; sha256: string }>(
    "SELECT DISTINCT tenant_id, sha256 FROM attachments",
  );
  const dropNamed = db.prepare<[string, string]>(
    "DELETE FROM attachments WHERE tenant_id = ? AND sha256 = ?",
  );
  const deleteIfUnnamed = (tenantId: string, sha256: string) => {
    if (!named.get(tenantId, sha256))
      rmSync(attachmentBlobPath(directory, tenantId, sha256), { force: true });
  };
  const readerOf = (reader: AttachmentReader) => ({
    tenant: reader.tenantId,
    principal: reader.principalId,
    run: reader.runId,
    now: clock(),
  });

  // The sums and the insert in one immediate transaction: two processes cannot both see room.
  const add = db.transaction((tenantId: string, attachment: Attachment, bytes: Uint8Array) => {
    const over = overQuota(caps, kept.get(attachment.principalId, tenantId)!, attachment.size);
    if (over) return over;
    const path = attachmentBlobPath(directory, tenantId, attachment.sha256);
    if (!existsSync(path)) writeWhole(path, join(directory, tenantFolder(tenantId)), bytes);
    insert.run({
      tenant: tenantId,
      id: attachment.id,
      principal: attachment.principalId,
      run: attachment.runId ?? null,
      sha256: attachment.sha256,
      name: attachment.name,
      mediaType: attachment.mediaType,
      size: attachment.size,
      createdAt: attachment.createdAt,
      expiresAt: attachment.expiresAt,
    });
    return undefined;
  });
  const remove = db.transaction((reader: AttachmentReader, id: string) => {
    const removed = removeOne.get({ ...readerOf(reader), id });
    if (removed) deleteIfUnnamed(reader.tenantId, removed.sha256);
    return removed !== undefined;
  });
  const purge = db.transaction((now: number) => {
    const removed = removeExpired.all(now);
    const blobs = new Map(removed.map((row) => [JSON.stringify([row.tenant_id, row.sha256]), row]));
    for (const row of blobs.values()) deleteIfUnnamed(row.tenant_id, row.sha256);
    return removed.length;
  });
  const reconcile = db.transaction(() => {
    let missingBlobs = 0;
    const wanted = new Set<string>();
    for (const { tenant_id, sha256 } of everyNamed.all()) {
      const path = attachmentBlobPath(directory, tenant_id, sha256);
      if (existsSync(path)) wanted.add(path);
      else missingBlobs += dropNamed.run(tenant_id, sha256).changes;
    }
    let orphanBlobs = 0;
    if (!existsSync(directory)) return { orphanBlobs, missingBlobs };
    for (const folder of readdirSync(directory, { withFileTypes: true })) {
      if (!folder.isDirectory()) continue;
      for (const file of readdirSync(join(directory, folder.name))) {
        const path = join(directory, folder.name, file);
        if (wanted.has(path)) continue;
        // Under the write lock no add is writing, so a temporary file is a crashed add's.
        rmSync(path, { force: true, recursive: true });
        if (!file.startsWith(TEMPORARY)) orphanBlobs++;
      }
    }
    return { orphanBlobs, missingBlobs };
  });

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
      return add.immediate(owner.tenantId, attachment, bytes) ?? { added: true, attachment };
    },
    async list(reader, { limit, after }) {
      const from = after === undefined ? undefined : attachmentCursor(after);
      const size = Math.max(1, Math.min(limit, ATTACHMENT_LIMITS.listPage));
      const rows = page.all({
        ...readerOf(reader),
        from: from ? 1 : 0,
        at: from?.createdAt ?? 0,
        after: from?.id ?? "",
        size: size + 1,
      });
      const attachments = rows.slice(0, size).map(toAttachment);
      const last = attachments[attachments.length - 1];
      return rows.length > size && last ? { attachments, next: encodeCursor(last) } : { attachments };
    },
    async read(reader, id) {
      if (!isAttachmentId(id)) return undefined;
      const row = select.get({ ...readerOf(reader), id });
      if (!row) return undefined;
      const bytes = readWhole(attachmentBlobPath(directory, reader.tenantId, row.sha256));
      return bytes && { attachment: toAttachment(row), bytes };
    },
    async remove(reader, id) {
      if (!isAttachmentId(id)) return false;
      return remove.immediate(reader, id);
    },
    async purgeExpired({ now }) {
      return purge.immediate(now);
    },
    async reconcile() {
      return reconcile.immediate();
    },
  };
}
