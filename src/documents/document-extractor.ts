/**
 * @module The document extractor: reads a document by its media type, after checking that its bytes are that
 * type (a PDF starts `%PDF-`, a DOCX is a zip holding `word/document.xml`, a text is no binary data). A file
 * that claims to be what it is not is refused with what it really is, before any parser sees it.
 */
import { ToolFailure } from "../errors/tool-failure.js";
import {
  DOCUMENT_MEDIA_TYPES,
  type DocumentExtractor,
  type DocumentMediaType,
  type ExtractedDocument,
  type ExtractRequest,
} from "../ports/document-extractor.js";
import { readDocx } from "./read-docx.js";
import { readHtml } from "./read-html.js";
import { readMarkdown } from "./read-markdown.js";
import { readPdf } from "./read-pdf.js";
import { readPlainText } from "./read-text.js";
import { hasPdfHeader, KIND_NAMES, sniffBytes } from "./sniff-bytes.js";

const PDF = "application/pdf";
const DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";

interface Format {
  name: string;
  /** Whether the bytes are this format. */
  holds(bytes: Uint8Array, charset?: string): boolean;
  read(request: ExtractRequest): Promise<ExtractedDocument>;
}

const isText = (bytes: Uint8Array, charset?: string) => sniffBytes(bytes, charset) === "text";

const FORMATS: Readonly<Record<DocumentMediaType, Format>> = {
  [PDF]: { name: "a PDF", holds: hasPdfHeader, read: readPdf },
  // Whether the zip holds word/document.xml is the DOCX reader's first check, after the archive's own.
  [DOCX]: { name: "a DOCX", holds: (bytes) => sniffBytes(bytes) === "zip", read: readDocx },
  "text/html": { name: "HTML", holds: isText, read: readHtml },
  "text/markdown": { name: "markdown", holds: isText, read: readMarkdown },
  "text/plain": { name: "plain text", holds: isText, read: readPlainText },
};

/** Other names the same formats go by. */
const ALIASES: Readonly<Record<string, DocumentMediaType>> = {
  "application/xhtml+xml": "text/html",
  "text/x-markdown": "text/markdown",
};

/** The document type a media type stands for (parameters such as `; charset=utf-8` aside), if one is read here. */
export function documentMediaType(mediaType: string): DocumentMediaType | undefined {
  const type = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  return (
    DOCUMENT_MEDIA_TYPES.find((known) => known === type) ??
    (Object.hasOwn(ALIASES, type) ? ALIASES[type] : undefined)
  );
}

export function createDocumentExtractor(): DocumentExtractor {
  return {
    async extract(request) {
      const format = Object.hasOwn(FORMATS, request.mediaType) ? FORMATS[request.mediaType] : undefined;
      if (!format) {
        throw new ToolFailure(
          "invalid_input",
          `${String(request.mediaType)} is not a document type read here; supported: ${DOCUMENT_MEDIA_TYPES.join(", ")}`,
          { details: { supported: [...DOCUMENT_MEDIA_TYPES] } },
        );
      }
      checkBounds(request);
      if (request.pages && request.mediaType !== PDF)
        throw new ToolFailure("invalid_input", `${format.name} has no pages: leave pages out to read it`);
      if (request.bytes.length === 0)
        throw new ToolFailure("invalid_input", "the file is empty: there is nothing to read");
      if (!format.holds(request.bytes, request.charset)) {
        throw new ToolFailure(
          "invalid_input",
          `the file claims to be ${format.name} but its bytes are ${KIND_NAMES[sniffBytes(request.bytes, request.charset)]}: it was not read`,
          { details: { mediaType: request.mediaType } },
        );
      }
      request.signal?.throwIfAborted();
      try {
        return await format.read(request);
      } catch (error) {
        if (ToolFailure.isInstance(error) || request.signal?.aborted) throw error;
        // A parser that stumbles on a file it cannot make sense of says so as a refusal of that file; its
        // message may quote the file, so it stays in `cause` (for logs), never in what the model reads.
        throw new ToolFailure(
          "invalid_input",
          `the file could not be read as ${format.name}: it is damaged`,
          {
            cause: error,
          },
        );
      }
    },
  };
}

function checkBounds({ maxChars, maxPages }: ExtractRequest): void {
  if (!Number.isInteger(maxChars) || maxChars < 1 || !Number.isInteger(maxPages) || maxPages < 1)
    throw new ToolFailure("invalid_input", "maxChars and maxPages must be whole numbers of at least 1");
}
