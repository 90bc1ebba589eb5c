/**
 * @module The port for attachments: files a person hands their agent (an upload through the API, the console
 * or `toolreg attachments add`). Every method takes the reader — tenant, principal and run, from the execution
 * context or the authenticated request, never from tool input — and every adapter checks it in the query
 * itself, so the entitlement is decided once, here, and never by a tool.
 */

/** Who reads: the tenant, the principal within it, and the run the call belongs to. */
export interface AttachmentReader {
  tenantId: string;
  principalId: string;
  runId: string;
}

/**
 * Who an attachment is for. It always belongs to its uploader in its tenant; with a `runId` it is read only
 * within that run (a file dropped into one conversation), without one in any run of the uploader.
 */
export interface AttachmentOwner {
  tenantId: string;
  principalId: string;
  runId?: string | undefined;
}

export interface Attachment {
  /** `att_` and a random suffix: one upload, even of bytes already held. */
  id: string;
  /** The sha256 of the bytes, hex: equal bytes are kept once per tenant. */
  sha256: string;
  /** A plain file name, as uploaded, without any folder. */
  name: string;
  mediaType: string;
  size: number;
  principalId: string;
  /** Absent for an attachment of every run of its uploader. */
  runId?: string;
  /** Epoch milliseconds. */
  createdAt: number;
  /** Epoch milliseconds after which the attachment is deleted by `purgeExpired`. */
  expiresAt: number;
}

export interface NewAttachment {
  name: string;
  mediaType: string;
  bytes: Uint8Array;
  /** Epoch milliseconds; the store keeps no clock of its own. */
  now: number;
  /** How long it is kept; `ATTACHMENT_LIMITS.defaultRetentionMs` when omitted. */
  retentionMs?: number;
}

export type AddOutcome =
  | { added: true; attachment: Attachment }
  /** Over `ATTACHMENT_LIMITS.bytes` for one file. */
  | { added: false; reason: "too_large"; limit: number }
  /** The tenant already keeps `limit` bytes of attachments; some must be removed or expire first. */
  | { added: false; reason: "quota"; limit: number }
  /** The principal already keeps `limit` bytes, its share of the tenant's quota: one key cannot fill it. */
  | { added: false; reason: "principal_quota"; limit: number }
  /** The name is empty, holds a path separator or a control character, or is too long. */
  | { added: false; reason: "bad_name"; limit: number };

export interface AttachmentPage {
  /** Newest first. */
  attachments: Attachment[];
  /** Given back as `after` for the next page; absent on the last page. */
  next?: string;
}

export interface AttachmentStore {
  add(owner: AttachmentOwner, attachment: NewAttachment): Promise<AddOutcome>;
  /** The attachments the reader may read: its own of this run and of every run. */
  list(
    reader: AttachmentReader,
    page: { limit: number; after?: string | undefined },
  ): Promise<AttachmentPage>;
  /** Its record and bytes, or undefined when missing, expired or not the reader's (all three alike). */
  read(
    reader: AttachmentReader,
    id: string,
  ): Promise<{ attachment: Attachment; bytes: Uint8Array } | undefined>;
  /** Removes one of the reader's attachments; false when there was none the reader may remove. */
  remove(reader: AttachmentReader, id: string): Promise<boolean>;
  /** Deletes the attachments past their `expiresAt` and the bytes no attachment names any more; how many went. */
  purgeExpired(request: { now: number }): Promise<number>;
  /**
   * Repairs what a crash between two steps can leave: bytes with no attachment naming them are deleted, an
   * attachment whose bytes are gone is dropped. How many of each.
   */
  reconcile(): Promise<{ orphanBlobs: number; missingBlobs: number }>;
}

export const ATTACHMENT_LIMITS = {
  /** One upload: large enough for a report or a scanned contract, small enough to hold in memory. */
  bytes: 25 * 1024 * 1024,
  /** Every attachment of one tenant together. */
  tenantBytes: 1024 * 1024 * 1024,
  /** Every attachment of one principal (of all its runs) together: a quarter of the tenant's. */
  principalBytes: 256 * 1024 * 1024,
  nameChars: 200,
  listPage: 100,
  defaultRetentionMs: 30 * 24 * 60 * 60 * 1000,
} as const;
