/**
 * @module What every AttachmentStore adapter does the same way: the name check, the new id, the content
 * digest, the limits a store was opened with and the expiry, so the three adapters cannot drift apart.
 */
import { createHash, randomBytes } from "node:crypto";
import {
  type AddOutcome,
  ATTACHMENT_LIMITS,
  type Attachment,
  type AttachmentOwner,
} from "./attachment-store.js";
import { decodeCursor, type ListPosition } from "./memory-words.js";

/** The caps an adapter enforces; tests lower them. */
export interface AttachmentCaps {
  /** One upload; default `ATTACHMENT_LIMITS.bytes`. */
  bytes?: number;
  /** Every attachment of one tenant together; default `ATTACHMENT_LIMITS.tenantBytes`. */
  tenantBytes?: number;
  /** Every attachment of one principal together; default `ATTACHMENT_LIMITS.principalBytes`. */
  principalBytes?: number;
}

export interface AttachmentStoreOptions {
  caps?: AttachmentCaps;
  /** What "now" is when hiding expired attachments from reads; default `Date.now`. */
  clock?: () => number;
}

export const attachmentCaps = (options: AttachmentStoreOptions) => ({
  bytes: options.caps?.bytes ?? ATTACHMENT_LIMITS.bytes,
  tenantBytes: options.caps?.tenantBytes ?? ATTACHMENT_LIMITS.tenantBytes,
  principalBytes: options.caps?.principalBytes ?? ATTACHMENT_LIMITS.principalBytes,
});

/** An upload's id: unguessable, so an id seen by one reader says nothing of another's. */
export const newAttachmentId = (): string => `att_${randomBytes(12).toString("hex")}`;

/** An attachment id as the store makes it; anything else cannot name one. */
export const ATTACHMENT_ID = /^att_[0-9a-f]{24}$/;

/**
 * Whether `id` could name an attachment. A store answers any other as a missing id before it asks its
 * backend: PostgreSQL's text refuses a NUL with an error, which reached a caller as a 500.
 */
export const isAttachmentId = (id: string): boolean => ATTACHMENT_ID.test(id);

/** Where a list cursor of attachments points; a RangeError for one no list gave (its id not an id). */
export function attachmentCursor(after: string): ListPosition {
  const from = decodeCursor(after);
  if (!isAttachmentId(from.id)) throw new RangeError("not an attachment list cursor");
  return from;
}

export const sha256Of = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * Whether `name` is a plain file name: not empty, at most `ATTACHMENT_LIMITS.nameChars` characters, no
 * folder (no / or \, not . or ..), no control character and no lone surrogate (PostgreSQL's text refuses
 * what SQLite would keep, and every backend must answer alike).
 */
export function badAttachmentName(name: string): boolean {
  return (
    name.length === 0 ||
    [...name].length > ATTACHMENT_LIMITS.nameChars ||
    /[/\\\p{Cc}\p{Cs}]/u.test(name) ||
    name === "." ||
    name === ".."
  );
}

/**
 * The quota an add of `size` bytes would pass, given what the tenant and the adding principal keep: the
 * tenant's, then the principal's share of it (so one key cannot fill the tenant's). Undefined when it fits.
 */
export function overQuota(
  caps: { tenantBytes: number; principalBytes: number },
  kept: { tenant: number; principal: number },
  size: number,
): Extract<AddOutcome, { reason: "quota" | "principal_quota" }> | undefined {
  if (kept.tenant + size > caps.tenantBytes)
    return { added: false, reason: "quota", limit: caps.tenantBytes };
  if (kept.principal + size > caps.principalBytes)
    return { added: false, reason: "principal_quota", limit: caps.principalBytes };
  return undefined;
}

/** An add refused before any storage is touched: a bad name, or a file over the cap. */
export function refusedUpfront(
  name: string,
  bytes: Uint8Array,
  caps: { bytes: number },
): Exclude<AddOutcome, { added: true }> | undefined {
  if (badAttachmentName(name))
    return { added: false, reason: "bad_name", limit: ATTACHMENT_LIMITS.nameChars };
  if (bytes.byteLength > caps.bytes) return { added: false, reason: "too_large", limit: caps.bytes };
  return undefined;
}

/** The record of a new attachment of `owner`, from its checked name, type, bytes and times. */
export function newAttachment(
  owner: AttachmentOwner,
  fields: {
    name: string;
    mediaType: string;
    sha256: string;
    size: number;
    now: number;
    retentionMs?: number;
  },
): Attachment {
  const { name, mediaType, sha256, size, now } = fields;
  const expiresAt = now + (fields.retentionMs ?? ATTACHMENT_LIMITS.defaultRetentionMs);
  return {
    id: newAttachmentId(),
    sha256,
    name,
    mediaType,
    size,
    principalId: owner.principalId,
    ...(owner.runId === undefined ? {} : { runId: owner.runId }),
    createdAt: now,
    expiresAt,
  };
}
