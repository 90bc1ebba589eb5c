/**
 * @module Vendor text made plain and bounded: Wikipedia's snippets and Hacker News' story text come as
 * HTML fragments (`<span class="searchmatch">`, `<p>`, entities), arXiv's titles and abstracts hard-wrapped.
 * Tags are dropped and the common entities decoded; the result is still untrusted text, fenced by the seam.
 */

const NAMED: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
};

/** Tags dropped, entities decoded, whitespace collapsed, cut to `limit` characters with an ellipsis. */
export function plainText(html: string, limit: number): string {
  const text = html
    .replace(/<[^>]*>/g, " ")
    .replace(/&(#x[0-9a-f]{1,6}|#[0-9]{1,7}|[a-z]{2,6});/gi, (entity, name: string) => decode(entity, name));
  return oneLine(text, limit);
}

/** Whitespace and control characters collapsed to single spaces, and a bound with an ellipsis. */
export function oneLine(text: string, limit: number): string {
  const line = text
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return line.length > limit ? `${line.slice(0, limit)}…` : line;
}

function decode(entity: string, name: string): string {
  if (name.startsWith("#")) {
    const code =
      name[1] === "x" || name[1] === "X" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    const valid = Number.isInteger(code) && code > 0 && code <= 0x10ffff && (code < 0xd800 || code > 0xdfff);
    return valid ? String.fromCodePoint(code) : " ";
  }
  return NAMED[name.toLowerCase()] ?? entity;
}
