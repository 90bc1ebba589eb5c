/**
 * @module Cutting text by UTF-16 units without parting a surrogate pair: half of an astral character (an
 * emoji) makes a string some providers' APIs refuse (Anthropic's answers 400).
 */

function isHigh(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLow(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Whether `index` falls between the high and the low half of a pair. */
export function splitsPair(text: string, index: number): boolean {
  return isLow(text.charCodeAt(index)) && isHigh(text.charCodeAt(index - 1));
}

/** The first `end` units, one fewer when the cut would part a pair. */
export function sliceWhole(text: string, end: number): string {
  return text.slice(0, splitsPair(text, end) ? end - 1 : end);
}

/** The text without a high half at its end, which a cut left without its low one. */
export function withoutHalfPair(text: string): string {
  return isHigh(text.charCodeAt(text.length - 1)) ? text.slice(0, -1) : text;
}
