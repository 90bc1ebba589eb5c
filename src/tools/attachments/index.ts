/** @module The attachments toolkit: the files a person hands their agent, kept in an AttachmentStore. */
import type { AttachmentStore } from "../../ports/attachment-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { attachmentsToolkit } from "./toolkit.js";

export { isTextLike } from "./text-media.js";
export { attachmentsToolkit } from "./toolkit.js";

export interface AttachmentToolDeps {
  /** Where the attachments are kept; without one there is no list_attachments or read_attachment. */
  attachments?: AttachmentStore;
}

export const attachmentTools: ToolModule<AttachmentToolDeps> = (deps) =>
  deps.attachments ? attachmentsToolkit.withEnv({ attachments: deps.attachments }) : [];
