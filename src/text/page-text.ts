/**
 * @module One page of a long text, by UTF-16 units, as read_tool_output and read_attachment read on: a page
 * never parts the two halves of an astral character (an emoji), since an API may refuse a request holding a
 * lone half (Anthropic's answers 400).
 */
import { splitsPair } from "./surrogates.js";

export interface TextPage {
  text: string;
  /** Where the page starts: `offset`, or a unit before it when that falls inside a pair. */
  start: number;
  end: number;
  total: number;
  /** Where the next page starts; null at the end. */
  nextOffset: number | null;
}

/**
 * The page of up to `length` units from `offset` (at most the text's length: the caller refuses one past
 * it). It ends a unit early rather than split a pair, or a unit late if that would leave it empty.
 */
export function pageText(text: string, offset: number, length: number): TextPage {
  const total = text.length;
  const start = splitsPair(text, offset) ? offset - 1 : offset;
  let end = Math.min(start + length, total);
  if (splitsPair(text, end)) end = end - 1 > start ? end - 1 : end + 1;
  return { text: text.slice(start, end), start, end, total, nextOffset: end < total ? end : null };
}
