/**
 * @module A Word document (DOCX) as markdown: mammoth turns it into HTML (headings from the document's
 * heading styles, tables as tables), the project's HTML-to-markdown makes markdown of that. Every entry of the
 * archive is proved within the unpacked-size cap first, so mammoth never inflates a bomb, and images are left
 * out unread: a reader of the text has no use for their bytes.
 */
import { ToolFailure } from "../errors/tool-failure.js";
import type { ExtractedDocument, ExtractRequest } from "../ports/document-extractor.js";
import { elementText } from "../text/element-text.js";
import { htmlToMarkdown } from "../text/html-to-markdown.js";
import { firstHeading, markdownSections, withinChars } from "./markdown-sections.js";
import { unpackEntry, zipEntries } from "./zip-entries.js";

const MAIN_PART = "word/document.xml";
const CORE_PROPERTIES = "docProps/core.xml";

/**
 * The document's XML parts together: mammoth holds a tree of them and converts about a megabyte a second, so
 * this bounds a read to seconds; a 300-page report's XML is a few megabytes.
 */
export const DOCX_XML_BYTES = 16 * 1024 * 1024;

const isXml = (name: string) => /\.(xml|rels)$/i.test(name);

export async function readDocx(request: ExtractRequest): Promise<ExtractedDocument> {
  const { bytes, signal } = request;
  const entries = zipEntries(bytes);
  if (!entries.some((entry) => entry.name === MAIN_PART))
    throw new ToolFailure(
      "invalid_input",
      `the file is a zip archive but not a DOCX: it holds no ${MAIN_PART}`,
    );
  const xml = entries.reduce((sum, entry) => sum + (isXml(entry.name) ? entry.size : 0), 0);
  if (xml > DOCX_XML_BYTES) {
    throw new ToolFailure(
      "invalid_input",
      `the DOCX was refused without unpacking it: its text parts unpack to ${mib(xml)} MiB, over the ${mib(DOCX_XML_BYTES)} MiB read here; split the document or save it as PDF`,
      { details: { reason: "too_large_unpacked", limit: DOCX_XML_BYTES } },
    );
  }
  let title: string | undefined;
  for (const entry of entries) {
    const unpacked = unpackEntry(bytes, entry);
    if (entry.name === CORE_PROPERTIES) title = titleOf(new TextDecoder().decode(unpacked));
  }
  signal?.throwIfAborted();

  // Loaded on first use: mammoth and its zip and XML readers are some 130 modules every `toolreg` command
  // would otherwise load at start.
  const { default: mammoth } = await import("mammoth");
  const noImages = mammoth.images.imgElement(async () => ({ src: "" }));
  let html: string;
  try {
    ({ value: html } = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      // A linked file outside the document is never opened: the document is the uploader's, the disk is ours.
      { convertImage: noImages, externalFileAccess: false },
    ));
  } catch (error) {
    // mammoth's message may quote the document's own XML: it stays in `cause`, never in what the model reads.
    throw new ToolFailure("invalid_input", "the DOCX could not be read: its XML is damaged or not Word's", {
      cause: error,
    });
  }
  signal?.throwIfAborted();

  const { markdown } = htmlToMarkdown(html);
  const read = withinChars(markdownSections(markdown), request.maxChars);
  const named = title ?? firstHeading(read.sections);
  return { ...(named ? { title: named } : {}), ...read };
}

/** The title the document's properties give (Word's File > Info > Title), when there is one. */
function titleOf(coreXml: string): string | undefined {
  const raw = elementText(coreXml, "dc:title");
  if (raw === undefined) return undefined;
  const title = raw
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ")
    .trim();
  return title === "" ? undefined : title.slice(0, 300);
}

const mib = (bytes: number) => Math.ceil(bytes / 1024 / 1024);
