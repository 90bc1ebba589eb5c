/**
 * @module The documents toolkit: the text of the documents a person attached (PDF, Word, web pages, markdown,
 * text) with their structure kept. It reads through the deployment's attachment store, which decides who reads
 * what; with no store on the host its tool is not served.
 */
import { z } from "zod";
import { createDocumentExtractor } from "../../documents/document-extractor.js";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { readDocumentSpec } from "./read-document.js";

export const documentsToolkit = defineToolkit({
  id: "documents",
  version: "1.0.0",
  package: "toolreg",
  description: "The text of attached documents (PDF, DOCX, HTML, Markdown, text) as markdown, page by page.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [readDocumentSpec],
  bind: (_config, host) =>
    host.attachments ? { attachments: host.attachments, extractor: createDocumentExtractor() } : undefined,
});
