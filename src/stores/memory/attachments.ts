/**
 * @module The reference AttachmentStore, in process: per tenant, the records and the bytes by digest. A
 * lookup starts from the reader's tenant, so nothing of another tenant is reachable; there is no crash
 * between two steps to repair, so `reconcile` finds nothing.
 */
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

interface Tenant {
  attachments: Map<string, Attachment>;
  blobs: Map<string, Uint8Array>;
}

const newestFirst = (a: Attachment, b: Attachment) =>
  b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export function createMemoryAttachmentStore(options: AttachmentStoreOptions = {}): AttachmentStore {
  const caps = attachmentCaps(options);
  const clock = options.clock ?? Date.now;
  const tenants = new Map<string, Tenant>();
  const copy = (attachment: Attachment): Attachment => ({ ...attachment });
  /** The reader's attachment `id`, unless it is another principal's, another run's or expired. */
  const readable = (reader: AttachmentReader, attachment: Attachment | undefined) =>
    attachment !== undefined &&
    attachment.principalId === reader.principalId &&
    (attachment.runId === undefined || attachment.runId === reader.runId) &&
    attachment.expiresAt > clock();
  const dropUnnamed = (tenant: Tenant, sha256: string) => {
    for (const attachment of tenant.attachments.values()) if (attachment.sha256 === sha256) return;
    tenant.blobs.delete(sha256);
  };
  return {
    async add(owner, { name, mediaType, bytes, now, retentionMs }) {
      const refused = refusedUpfront(name, bytes, caps);
      if (refused) return refused;
      const tenant = tenants.get(owner.tenantId) ?? { attachments: new Map(), blobs: new Map() };
      let kept = 0;
      let own = 0;
      for (const attachment of tenant.attachments.values()) {
        kept += attachment.size;
        if (attachment.principalId === owner.principalId) own += attachment.size;
      }
      const over = overQuota(caps, { tenant: kept, principal: own }, bytes.byteLength);
      if (over) return over;
      const sha256 = sha256Of(bytes);
      const attachment = newAttachment(owner, {
        name,
        mediaType,
        sha256,
        size: bytes.byteLength,
        now,
        ...(retentionMs === undefined ? {} : { retentionMs }),
      });
      if (!tenant.blobs.has(sha256)) tenant.blobs.set(sha256, new Uint8Array(bytes));
      tenant.attachments.set(attachment.id, attachment);
      tenants.set(owner.tenantId, tenant);
      return { added: true, attachment: copy(attachment) };
    },
    async list(reader, { limit, after }) {
      const from = after === undefined ? undefined : attachmentCursor(after);
      const tenant = tenants.get(reader.tenantId);
      const sorted = [...(tenant?.attachments.values() ?? [])]
        .filter((attachment) => readable(reader, attachment))
        .sort(newestFirst);
      const rest = from
        ? sorted.filter(
            (attachment) =>
              attachment.createdAt < from.createdAt ||
              (attachment.createdAt === from.createdAt && attachment.id < from.id),
          )
        : sorted;
      const size = Math.max(1, Math.min(limit, ATTACHMENT_LIMITS.listPage));
      const attachments = rest.slice(0, size).map(copy);
      const last = attachments[attachments.length - 1];
      return rest.length > size && last ? { attachments, next: encodeCursor(last) } : { attachments };
    },
    async read(reader, id) {
      if (!isAttachmentId(id)) return undefined;
      const tenant = tenants.get(reader.tenantId);
      const attachment = tenant?.attachments.get(id);
      if (!tenant || !attachment || !readable(reader, attachment)) return undefined;
      const bytes = tenant.blobs.get(attachment.sha256);
      return bytes && { attachment: copy(attachment), bytes: new Uint8Array(bytes) };
    },
    async remove(reader, id) {
      if (!isAttachmentId(id)) return false;
      const tenant = tenants.get(reader.tenantId);
      const attachment = tenant?.attachments.get(id);
      if (!tenant || !attachment || !readable(reader, attachment)) return false;
      tenant.attachments.delete(id);
      dropUnnamed(tenant, attachment.sha256);
      return true;
    },
    async purgeExpired({ now }) {
      let purged = 0;
      for (const tenant of tenants.values()) {
        for (const attachment of [...tenant.attachments.values()]) {
          if (attachment.expiresAt > now) continue;
          tenant.attachments.delete(attachment.id);
          dropUnnamed(tenant, attachment.sha256);
          purged++;
        }
      }
      return purged;
    },
    async reconcile() {
      return { orphanBlobs: 0, missingBlobs: 0 };
    },
  };
}
