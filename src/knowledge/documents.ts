/**
 * @module Where a knowledge source's text comes from: a pasted text, a URL fetched through the egress client
 * (every hop checked against the address policy, the body capped), or an attachment read as its uploader.
 * Bytes become sections (headings, pages, tables as markdown) through the document extractor, so the
 * knowledge base and read_document see one document the same way.
 */

import { createDocumentExtractor, documentMediaType } from "../documents/document-extractor.js";
import { markdownSections } from "../documents/markdown-sections.js";
import type { EgressClient } from "../egress/egress-client.js";
import type { AttachmentReader, AttachmentStore } from "../ports/attachment-store.js";
import {
  DOCUMENT_MEDIA_TYPES,
  type DocumentExtractor,
  type DocumentSection,
  type ExtractStop,
} from "../ports/document-extractor.js";

export interface LoadedDocument {
  title?: string;
  sections: DocumentSection[];
  /** The bound that cut the document short: what is indexed is only its beginning. */
  stoppedBy?: ExtractStop;
}

/** What one source may hold: the extractor stops there and says so. */
export const DOCUMENT_CAPS = { maxChars: 2_000_000, maxPages: 1_000, urlBytes: 10 * 1024 * 1024 } as const;

/** A pasted text, read as markdown (a plain text is markdown without headings). */
export function textDocument(text: string): LoadedDocument {
  return { sections: markdownSections(text) };
}

/** The document at `url`, fetched through `egress`; an HTTP error or a type nothing reads is refused. */
export async function urlDocument(
  egress: EgressClient,
  url: string,
  extractor: DocumentExtractor = createDocumentExtractor(),
  signal?: AbortSignal,
): Promise<LoadedDocument & { finalUrl: string }> {
  const response = await egress.request(url, {
    maxResponseBytes: DOCUMENT_CAPS.urlBytes,
    ...(signal ? { signal } : {}),
  });
  if (response.status >= 400) throw new RangeError(`${url} answered HTTP ${response.status}`);
  if (response.truncated)
    throw new RangeError(
      `${url} is over ${DOCUMENT_CAPS.urlBytes / 1024 / 1024} MiB, more than a source may hold`,
    );
  const type = response.headers["content-type"] || "text/plain";
  return { ...(await bytesDocument(response.body, type, extractor, signal)), finalUrl: response.url };
}

/** An attachment, read as `reader` (its uploader): one they may not read is refused like a missing one. */
export async function attachmentDocument(
  attachments: AttachmentStore,
  reader: AttachmentReader,
  id: string,
  extractor: DocumentExtractor = createDocumentExtractor(),
  signal?: AbortSignal,
): Promise<LoadedDocument & { name: string }> {
  const found = await attachments.read(reader, id);
  if (!found) throw new RangeError(`no attachment ${id} that this caller may read`);
  const document = await bytesDocument(found.bytes, found.attachment.mediaType, extractor, signal);
  return { ...document, name: found.attachment.name };
}

/** Bytes of a media type as sections, through the extractor; a type it does not read is refused. */
export async function bytesDocument(
  bytes: Uint8Array,
  mediaType: string,
  extractor: DocumentExtractor = createDocumentExtractor(),
  signal?: AbortSignal,
): Promise<LoadedDocument> {
  const type = documentMediaType(mediaType);
  if (!type) {
    throw new RangeError(
      `a ${mediaType.split(";")[0] || "file of no type"} cannot be read: the readable types are ${DOCUMENT_MEDIA_TYPES.join(", ")}`,
    );
  }
  const extracted = await extractor.extract({
    bytes,
    mediaType: type,
    maxChars: DOCUMENT_CAPS.maxChars,
    maxPages: DOCUMENT_CAPS.maxPages,
    ...(signal ? { signal } : {}),
  });
  return {
    ...(extracted.title ? { title: extracted.title } : {}),
    sections: extracted.sections,
    ...(extracted.stoppedBy ? { stoppedBy: extracted.stoppedBy } : {}),
  };
}
