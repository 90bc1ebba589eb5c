/**
 * @module The port that turns a document's bytes into text with its structure kept: headings as markdown
 * headings, tables as markdown tables, and the page each part came from. `read_document` reads through it and
 * the knowledge base chunks what it returns, so both see one document the same way.
 */

/** What kinds of document an extractor reads, by media type. */
export const DOCUMENT_MEDIA_TYPES = [
  "application/pdf",
  "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  "text/html",
  "text/markdown",
  "text/plain",
] as const;
export type DocumentMediaType = (typeof DOCUMENT_MEDIA_TYPES)[number];

export interface DocumentSection {
  /** Markdown: `#` headings, `|` tables, paragraphs separated by a blank line. */
  text: string;
  /** The page (from 1) for a paged format (PDF); absent for the others. */
  page?: number;
  /** The headings this part falls under, outermost first, e.g. ["Terms", "Payment"]. */
  headings: string[];
}

export interface ExtractRequest {
  bytes: Uint8Array;
  mediaType: DocumentMediaType;
  /** The charset a text format is in, as its media type named it; UTF-8 when absent. A byte order mark wins. */
  charset?: string;
  /** Pages to read (from 1, inclusive); a paged format only. All when omitted. */
  pages?: { from: number; to: number };
  /** The most characters of text to return; the read stops there and says so. */
  maxChars: number;
  /** The most pages to read of a paged format. */
  maxPages: number;
  signal?: AbortSignal;
}

/** Which bound ended the read before the document did; absent when the whole selection was read. */
export type ExtractStop = "max_chars" | "max_pages";

export interface ExtractedDocument {
  /** A title when the document names one (PDF metadata, the first heading, HTML's title). */
  title?: string;
  sections: DocumentSection[];
  /** How many pages the document has, for a paged format. */
  pageCount?: number;
  stoppedBy?: ExtractStop;
}

export interface DocumentExtractor {
  /**
   * Reads the document. Throws `ToolFailure` with `invalid_input` for bytes that are not the media type they
   * claim, or a page selection outside the document, saying which.
   */
  extract(request: ExtractRequest): Promise<ExtractedDocument>;
}
