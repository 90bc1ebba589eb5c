/**
 * @module Markers spelled with look-alike letters of other scripts (`Нuman:` with a Cyrillic Н, `[ІNST]`,
 * `‹tool_call›`), found by comparing confusable skeletons (Unicode UTS #39): the text is read through its
 * characters' skeletons and matched against patterns that accept every spelling of a marker's skeleton.
 * Only the matches are rewritten; ordinary Russian or Greek prose is left exactly as it is.
 */
import { Buffer } from "node:buffer";
import { createRequire } from "node:module";

/**
 * Unicode's confusables.txt (UTS #39), each source character with its prototype, as the unhomoglyph package
 * ships it: the file transcribed, nothing added (its data is Unicode 13.0's; later versions added look-alikes
 * mostly from newly encoded scripts). Only the data is used: the package's own function rewrites every
 * character of a text, which the fence must not do. Read on first use; about 6,300 entries.
 */
function confusables(): Readonly<Record<string, string>> {
  return createRequire(import.meta.url)("unhomoglyph/data.json") as Record<string, string>;
}

/** UTS #39's skeleton: decomposed, each character replaced by its prototype, decomposed again. */
function skeleton(text: string, prototypes: Readonly<Record<string, string>>): string {
  let mapped = "";
  for (const char of text.normalize("NFD")) mapped += prototypes[char] ?? char;
  return mapped.normalize("NFD");
}

/** The characters markers are written with; a look-alike of anything else is of no interest here. */
const MARKER_CHARACTER = /^[A-Za-z0-9<>:[\]/_=-]$/;

let projection: Uint16Array | undefined;

/**
 * For each UTF-16 unit, the marker character its skeleton is, or 0; made once. Only characters of one unit
 * are read through their skeleton, so the view has the text's length and a match's offsets are the text's
 * own: a look-alike outside the Basic Multilingual Plane (Old Italic, Carian: scripts no model reads as
 * Latin) is left out, and so is one whose skeleton is two characters (`Ы` as `bl`). A non-letter whose
 * skeleton is `l` (`׀`, `∣`) reads as the `|` it imitates.
 */
function projectionTable(): Uint16Array {
  if (projection) return projection;
  const prototypes = confusables();
  projection = new Uint16Array(0x10000);
  for (const source of Object.keys(prototypes)) {
    if (source.length !== 1 || source.charCodeAt(0) < 0x80) continue;
    let target = skeleton(source, prototypes);
    if (!MARKER_CHARACTER.test(target)) continue;
    if (target === "l" && !/[\p{L}\p{N}]/u.test(source)) target = "|";
    projection[source.charCodeAt(0)] = target.charCodeAt(0);
  }
  return projection;
}

const NON_ASCII = /[\u0080-\uffff]/;
/** The view's code units, kept from call to call, so building a view allocates only its string. */
let scratch = new Uint16Array(0x4000);

/**
 * The text as its skeleton reads, for matching only: each look-alike of a marker character replaced by that
 * character, the same length as the text. The text itself when it has no such look-alike.
 */
export function skeletonView(text: string): string {
  let first = text.search(NON_ASCII);
  if (first < 0) return text;
  const table = projectionTable();
  while (first < text.length && table[text.charCodeAt(first)] === 0) first++;
  if (first === text.length) return text;
  if (scratch.length < text.length) scratch = new Uint16Array(Math.max(text.length, 2 * scratch.length));
  for (let index = 0; index < text.length; index++) {
    const unit = text.charCodeAt(index);
    scratch[index] = table[unit] || unit;
  }
  return Buffer.from(scratch.buffer, 0, 2 * text.length).toString("utf16le");
}

let equivalents: Map<string, string[]> | undefined;

/** Each ASCII character with the ASCII spellings of its skeleton: `l` with `I`, `1` and `|`; `m` with `rn`. */
function asciiEquivalents(): Map<string, string[]> {
  if (equivalents) return equivalents;
  const prototypes = confusables();
  const bySkeleton = new Map<string, string[]>();
  for (let code = 0x21; code < 0x7f; code++) {
    const char = String.fromCharCode(code);
    const form = skeleton(char, prototypes);
    bySkeleton.set(form, [...(bySkeleton.get(form) ?? []), char]);
  }
  equivalents = new Map();
  for (const [form, chars] of bySkeleton) {
    const spellings = /^[\x21-\x7e]+$/.test(form) && !chars.includes(form) ? [...chars, form] : chars;
    for (const char of chars) equivalents.set(char, spellings);
  }
  return equivalents;
}

/**
 * A pattern (for a case-insensitive regular expression) matching every spelling of a marker's name whose
 * skeleton is that of the name in some case: `inst` as `[iIl1|]nst`, `human` as `hu(?:m|rn)an`. A run of
 * digits stands for any number; `_`, `-` and a space join words in any of those ways, or none (`tool_call`,
 * `TOOLCALL`).
 */
export function skeletonPattern(name: string): string {
  const spellings = asciiEquivalents();
  let pattern = "";
  for (const part of name.match(/\d+|[_\- ]|[^\d_\- ]/g) ?? []) {
    if (/^\d+$/.test(part)) pattern += "\\d+";
    else if (/^[_\- ]$/.test(part)) pattern += "[_\\- \\u2581]?";
    else {
      // Markers are matched whatever their case, so a letter takes the spellings of both of its cases.
      const cases = new Set([part, part.toLowerCase(), part.toUpperCase()]);
      const options = [...new Set([...cases].flatMap((char) => spellings.get(char) ?? [char]))];
      const single = options.filter((option) => option.length === 1);
      const longer = options.filter((option) => option.length > 1).map(escapeRegExp);
      const set =
        single.length > 1 ? `[${single.map(escapeClass).join("")}]` : escapeRegExp(single[0] ?? part);
      pattern += longer.length > 0 ? `(?:${[set, ...longer].join("|")})` : set;
    }
  }
  return pattern;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
}

function escapeClass(char: string): string {
  return /[\\\]^-]/.test(char) ? `\\${char}` : char;
}
