/** @module Documents read as markdown with their structure kept: PDF, DOCX, HTML, markdown and plain text. */
export { createDocumentExtractor, documentMediaType } from "./document-extractor.js";
