/** @module The documents toolkit: attached documents read as markdown through the document extractor. */

import { createDocumentExtractor } from "../../documents/document-extractor.js";
import type { AttachmentStore } from "../../ports/attachment-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { documentsToolkit } from "./toolkit.js";

export { documentsToolkit } from "./toolkit.js";

export interface DocumentToolDeps {
  /** Where the attachments are kept; without one there is no read_document. */
  attachments?: AttachmentStore;
}

export const documentTools: ToolModule<DocumentToolDeps> = (deps) =>
  deps.attachments
    ? documentsToolkit.withEnv({ attachments: deps.attachments, extractor: createDocumentExtractor() })
    : [];
