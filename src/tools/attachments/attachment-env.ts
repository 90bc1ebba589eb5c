/** @module What the attachment tools run against: the deployment's attachment store, and who reads from the context. */
import type { AttachmentReader, AttachmentStore } from "../../ports/attachment-store.js";
import type { ExecutionContext } from "../../seam/context.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface AttachmentEnv {
  attachments: AttachmentStore;
}

export const attachmentTool = toolFor<AttachmentEnv>();

/** Who reads: the caller's tenant, principal and run, from the context the seam built, never from the model's input. */
export const readerOf = ({ tenantId, principalId, runId }: ExecutionContext): AttachmentReader => ({
  tenantId,
  principalId,
  runId,
});

export { ATTACHMENT_ID } from "../../ports/attachment-rules.js";

/** Bytes as a person reads them: 512 B, 1.2 KiB, 3.4 MiB. */
export function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}
