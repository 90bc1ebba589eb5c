/**
 * @module Control characters and the invisible ones that hide or reorder text (zero-width, bidirectional
 * overrides and isolates, the byte-order mark): nothing a person types into a search box, everything a
 * smuggled instruction or a second line of a request needs. One pattern for every tool input that refuses them.
 */

export const HIDDEN_CHARACTERS = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF]/u;

/** True when `text` holds a control or invisible character. */
export function hasHiddenCharacters(text: string): boolean {
  return HIDDEN_CHARACTERS.test(text);
}

/**
 * Vendor text for one line of a tool's output: whitespace and control characters collapsed to single
 * spaces, and cut to `limit` characters, so no vendor string can start a line of its own.
 */
export function oneLine(text: string, limit: number): string {
  const line = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/[\s\u2028\u2029]+/g, " ")
    .trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}
