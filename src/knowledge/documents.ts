/**
 * @module Where a knowledge source's text comes from: a pasted text, a URL fetched through the egress client
 * (every hop checked against the address policy, the body capped), or an attachment read as its uploader.
 * Bytes become sections through the document extractor when the host has one; without it markdown, plain
 * text and HTML are still read here, and any other type is refused with what would read it.
 */
import type { EgressClient } from "../egress/egress-client.js";
import type { AttachmentReader, AttachmentStore } from "../ports/attachment-store.js";
import {
  DOCUMENT_MEDIA_TYPES,
  type DocumentExtractor,
  type DocumentMediaType,
  type DocumentSection,
} from "../ports/document-extractor.js";
import { htmlToMarkdown } from "../text/html-to-markdown.js";
import { decodeText, mediaTypeOf } from "../tools/web/response-text.js";
import { markdownSections } from "./chunking.js";

export interface LoadedDocument {
  title?: string;
  sections: DocumentSection[];
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
  extractor?: DocumentExtractor,
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
  const media = mediaTypeOf(response);
  const type = media.type === "application/xhtml+xml" ? "text/html" : media.type || "text/plain";
  if (!extractor && (type === "text/html" || type === "text/markdown" || type === "text/plain")) {
    const text = decodeText(response, media);
    if (type !== "text/html") return { sections: markdownSections(text), finalUrl: response.url };
    const page = htmlToMarkdown(text, response.url);
    return {
      ...(page.title ? { title: page.title } : {}),
      sections: markdownSections(page.markdown),
      finalUrl: response.url,
    };
  }
  return { ...(await bytesDocument(response.body, type, extractor, signal)), finalUrl: response.url };
}

/** An attachment, read as `reader` (its uploader): one they may not read is refused like a missing one. */
export async function attachmentDocument(
  attachments: AttachmentStore,
  reader: AttachmentReader,
  id: string,
  extractor?: DocumentExtractor,
  signal?: AbortSignal,
): Promise<LoadedDocument & { name: string }> {
  const found = await attachments.read(reader, id);
  if (!found) throw new RangeError(`no attachment ${id} that this caller may read`);
  const document = await bytesDocument(found.bytes, found.attachment.mediaType, extractor, signal);
  return { ...document, name: found.attachment.name };
}

/** Bytes of a media type as sections: through the extractor when there is one, else markdown and text only. */
export async function bytesDocument(
  bytes: Uint8Array,
  mediaType: string,
  extractor?: DocumentExtractor,
  signal?: AbortSignal,
): Promise<LoadedDocument> {
  const type = mediaType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (extractor && (DOCUMENT_MEDIA_TYPES as readonly string[]).includes(type)) {
    const extracted = await extractor.extract({
      bytes,
      mediaType: type as DocumentMediaType,
      maxChars: DOCUMENT_CAPS.maxChars,
      maxPages: DOCUMENT_CAPS.maxPages,
      ...(signal ? { signal } : {}),
    });
    return { ...(extracted.title ? { title: extracted.title } : {}), sections: extracted.sections };
  }
  if (type === "text/markdown" || type === "text/plain") {
    return textDocument(new TextDecoder("utf-8").decode(bytes));
  }
  if (type === "text/html") {
    const page = htmlToMarkdown(new TextDecoder("utf-8").decode(bytes), "about:blank");
    return { ...(page.title ? { title: page.title } : {}), sections: markdownSections(page.markdown) };
  }
  throw new RangeError(
    `a ${type || "file of no type"} cannot be read here: ${extractor ? `the readable types are ${DOCUMENT_MEDIA_TYPES.join(", ")}` : "only markdown, plain text and HTML are, without a document extractor"}`,
  );
}
