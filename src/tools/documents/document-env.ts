/** @module What read_document runs against: the deployment's attachment store and the document extractor. */
import type { AttachmentStore } from "../../ports/attachment-store.js";
import type { DocumentExtractor } from "../../ports/document-extractor.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface DocumentEnv {
  attachments: AttachmentStore;
  extractor: DocumentExtractor;
}

export const documentTool = toolFor<DocumentEnv>();
