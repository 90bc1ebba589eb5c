/**
 * @module Structure-aware chunking: a document's sections (cut at its headings and pages by the document
 * extractor) are kept apart, so a chunk never
 * straddles two sections, then each section by size at a paragraph, a sentence or a space (never inside a
 * word), each chunk repeating the end of the one before it so a sentence cut in two is whole in one of them.
 */
import type { DocumentSection } from "../ports/document-extractor.js";
import type { NewChunk } from "../ports/knowledge-base.js";
import { sha256Hex } from "../ports/knowledge-ranking.js";

export interface ChunkingOptions {
  /** The most characters of one chunk. */
  maxChars: number;
  /** About this many characters of a chunk's end begin the next one of the same section. */
  overlapChars: number;
}

const HEADING_OR_BLANK = /^\s*(#{1,6}(\s.*)?)?$/;

export const DEFAULT_CHUNKING: ChunkingOptions = { maxChars: 1_200, overlapChars: 150 };

/** The chunks of `sections`, in order, each with its page and heading path and its text's hash. */
export function chunkSections(
  sections: readonly DocumentSection[],
  options: ChunkingOptions = DEFAULT_CHUNKING,
): NewChunk[] {
  const chunks: NewChunk[] = [];
  for (const section of sections) {
    const sectionText = storable(section.text);
    // A heading with no text under it says nothing its subsections' heading paths do not.
    if (sectionText.split("\n").every((line) => HEADING_OR_BLANK.test(line))) continue;
    const location = {
      ...(section.page === undefined ? {} : { page: section.page }),
      headings: section.headings.map(storable),
    };
    for (const text of splitBySize(sectionText.trim(), options)) {
      chunks.push({ text, textHash: sha256Hex(text), location });
    }
  }
  return chunks;
}

/** `text` without what no store keeps as text: NUL (PostgreSQL refuses it) and broken surrogate halves. */
const storable = (text: string): string => text.replace(/\p{Cs}/gu, "\uFFFD").replaceAll("\u0000", "");

/** Pieces of at most `maxChars`, each cut at the best boundary in its second half. */
function splitBySize(text: string, { maxChars, overlapChars }: ChunkingOptions): string[] {
  if (text === "") return [];
  const pieces: string[] = [];
  let start = 0;
  while (start < text.length) {
    if (text.length - start <= maxChars) {
      pieces.push(text.slice(start).trim());
      break;
    }
    const end = cutAt(text, start, start + maxChars);
    pieces.push(text.slice(start, end).trim());
    // The next piece begins at a word start about `overlapChars` back, but always moves forward.
    start = wordStartBetween(text, Math.max(end - overlapChars, start + 1), end);
    while (start < text.length && /\s/.test(text[start] as string)) start++;
  }
  return pieces.filter((piece) => piece !== "");
}

/** The end of a piece starting at `start` and at most `limit`: a paragraph, a sentence, a space, else `limit`. */
function cutAt(text: string, start: number, limit: number): number {
  const window = text.slice(start, limit);
  const half = Math.floor(window.length / 2);
  for (const boundary of [/\n\s*\n/g, /[.!?]["')\]]?\s/g, /\s/g]) {
    let best = -1;
    for (const match of window.matchAll(boundary)) {
      const end = (match.index ?? 0) + match[0].length;
      if (end >= half) best = end;
    }
    if (best > 0) return start + best;
  }
  // One word longer than half a chunk: cut inside it, the only way to keep to the size.
  return limit;
}

/**
 * The first position in [`from`, `end`) where a word begins (just after a space), else `end`: bounded, so a
 * text without spaces costs one overlap per chunk, not a scan to its end.
 */
function wordStartBetween(text: string, from: number, end: number): number {
  for (let i = from; i < end; i++) {
    if (/\s/.test(text[i - 1] as string) && !/\s/.test(text[i] as string)) return i;
  }
  return end;
}
