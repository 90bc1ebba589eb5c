/**
 * @module What a document's bytes really are, read from the bytes rather than from the name or the media type
 * an uploader gave: a PDF, a zip (which a DOCX is), text, or other binary data. A file claiming to be what it
 * is not is refused before any parser meets it.
 */
import { decodeText } from "../text/decode-text.js";

export type SniffedKind = "pdf" | "zip" | "text" | "binary";

/** A PDF reader accepts a header within the first kilobyte (some writers put a line of junk first). */
const PDF_HEADER_WITHIN = 1024;
const PDF_HEADER = [0x25, 0x50, 0x44, 0x46, 0x2d]; // %PDF-
const ZIP_HEADER = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4
/** Enough of a text to tell it from binary data without decoding all of it. */
const SAMPLE_BYTES = 8192;

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0) =>
  prefix.every((byte, index) => bytes[at + index] === byte);

/** Whether a PDF reader would find a PDF header: `%PDF-` within the first kilobyte. */
export function hasPdfHeader(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length - PDF_HEADER.length, PDF_HEADER_WITHIN);
  for (let at = 0; at <= end; at++) if (startsWith(bytes, PDF_HEADER, at)) return true;
  return false;
}

/**
 * What the bytes are; empty bytes are binary data of no kind a reader takes. A PDF is one from its first
 * byte here, so a text that speaks of `%PDF-` in its first lines is still text. A text is decoded in the
 * `charset` its media type names: Latin-1's accents or UTF-16's zero bytes are text in theirs.
 */
export function sniffBytes(bytes: Uint8Array, charset?: string): SniffedKind {
  if (startsWith(bytes, PDF_HEADER)) return "pdf";
  if (startsWith(bytes, ZIP_HEADER)) return "zip";
  if (bytes.length === 0) return "binary";
  const sample = decodeText(bytes.subarray(0, SAMPLE_BYTES), charset);
  // A NUL, or many characters that are no text in any encoding read here, is binary data.
  const replaced = sample.match(/\uFFFD/g)?.length ?? 0;
  return sample.includes("\u0000") || replaced > sample.length / 10 ? "binary" : "text";
}

/** How a sniffed kind is named to a model told its file is not what it claimed. */
export const KIND_NAMES: Readonly<Record<SniffedKind, string>> = {
  pdf: "a PDF",
  zip: "a zip archive",
  text: "text",
  binary: "binary data",
};
