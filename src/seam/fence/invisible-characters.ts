/**
 * @module Characters a reader cannot see: Unicode's Default_Ignorable_Code_Point set (zero-width spaces and
 * joiners, bidi controls, variation selectors, the soft hyphen, Hangul fillers, the tag block …). Text
 * spelled in tag characters ("ASCII smuggling") is made visible; the rest are removed, so none can hide a
 * message or split a marker (`Hu\u200Bman:`), except where a script or an emoji needs them.
 */

/**
 * A subdivision flag (🏴 with tag letters and a cancel tag: England, Scotland, Wales) is kept whole: its few
 * tag letters name a region and cannot spell a message. Any other run of tag characters is revealed; any
 * other default-ignorable character is judged in its context.
 */
const SUBDIVISION_FLAG = "\\u{1F3F4}[\\u{E0030}-\\u{E0039}\\u{E0061}-\\u{E007A}]{2,6}\\u{E007F}";
const INVISIBLE = new RegExp(
  `${SUBDIVISION_FLAG}|([\\u{E0000}-\\u{E007F}]+)|\\p{Default_Ignorable_Code_Point}`,
  "gu",
);
const ANY_INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;
const FLAGS = new RegExp(SUBDIVISION_FLAG, "gu");
const TAG_CHARACTER = /[\u{E0000}-\u{E007F}]/u;

/** Whether the text hides characters in the tag block (outside a subdivision flag). */
export function hidesTagText(text: string): boolean {
  return TAG_CHARACTER.test(text) && TAG_CHARACTER.test(text.replace(FLAGS, ""));
}

/**
 * The text with its invisible characters dealt with: a run of tag characters becomes a visible
 * `⟦hidden tag text: …⟧` spelling out the ASCII it encodes (so the page's hidden message is read as the
 * page's data, and goes through the fence like the rest); every other default-ignorable character is
 * removed unless its context needs it (see `neededInContext`).
 */
export function revealInvisible(text: string): string {
  if (!ANY_INVISIBLE.test(text)) return text;
  return text.replace(INVISIBLE, (match: string, tags: string | undefined, offset: number, whole: string) => {
    if (tags !== undefined) return `⟦hidden tag text: ${decodeTags(tags)}⟧`;
    if (match.codePointAt(0) === 0x1f3f4) return match; // a subdivision flag
    return neededInContext(match, whole, offset) ? match : "";
  });
}

/** Tag characters U+E0020–U+E007E as the ASCII they shadow; the others (U+E0001, U+E007F …) by number. */
function decodeTags(tags: string): string {
  let decoded = "";
  for (const char of tags) {
    const code = char.codePointAt(0) ?? 0;
    decoded +=
      code >= 0xe0020 && code <= 0xe007e
        ? String.fromCharCode(code - 0xe0000)
        : `⟨U+${code.toString(16).toUpperCase()}⟩`;
  }
  return decoded;
}

/** Emoji a zero-width joiner may stand between (👨‍👩‍👧, 🏳️‍🌈, 🧑🏽‍💻); not ASCII digits, `#` or `*`. */
const EMOJI_BEFORE_JOINER = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\uFE0F/u;
const EMOJI_AFTER_JOINER = /\p{Extended_Pictographic}/u;
/** Letters and marks of scripts that need joiners (Persian's ZWNJ, Indic conjuncts): not Latin, Greek, Cyrillic. */
const JOINING = /[\p{L}\p{M}]/u;
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/u;
const LATIN_LIKE = /[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}]/u;

/**
 * Whether an invisible character does work for its neighbours, and stays. The choice: a reader of emoji
 * and of Persian, Indic or Mongolian text should see the page as its author wrote it, and none of these
 * contexts lies inside a marker, whose letters are Latin (or look like it: then they are Latin, Greek or
 * Cyrillic, where joiners are removed).
 * - a zero-width joiner between emoji (an emoji ZWJ sequence), or either joiner (U+200C, U+200D) between
 *   letters of a script that uses them;
 * - an emoji variation selector (U+FE0E, U+FE0F) after an emoji, or after a keycap's digit, `#` or `*`;
 * - another variation selector right after a character of a script other than Latin, Greek or Cyrillic that
 *   is not an emoji (mathematical and CJK compatibility variants), an ideographic one (U+E0100–U+E01EF)
 *   after a CJK ideograph, a Mongolian one (U+180B–U+180F) after a Mongolian letter.
 * A run of selectors after one character (how bytes are smuggled in variation selectors) keeps the first at
 * most: the next one's neighbour is a selector.
 */
function neededInContext(char: string, text: string, offset: number): boolean {
  const code = char.charCodeAt(0);
  const before = characterBefore(text, offset);
  const after = String.fromCodePoint(text.codePointAt(offset + char.length) ?? 0);
  if (code === 0x200d && EMOJI_BEFORE_JOINER.test(before) && EMOJI_AFTER_JOINER.test(after)) return true;
  // Otherwise an invisible character works for a visible one: never for another invisible one.
  if (IGNORABLE.test(before)) return false;
  if (code === 0x200c || code === 0x200d) {
    return (
      JOINING.test(before) &&
      JOINING.test(after) &&
      !IGNORABLE.test(after) &&
      !LATIN_LIKE.test(before) &&
      !LATIN_LIKE.test(after)
    );
  }
  if (code === 0xfe0e || code === 0xfe0f) {
    return (/\p{Emoji}/u.test(before) && before > "\x7f") || (/^[#*0-9]$/.test(before) && after === "\u20e3");
  }
  if (code >= 0xfe00 && code <= 0xfe0d) {
    return before > "\x7f" && !/\p{Emoji}/u.test(before) && !LATIN_LIKE.test(before);
  }
  const point = char.codePointAt(0) ?? 0;
  if (point >= 0xe0100 && point <= 0xe01ef) return /\p{Ideographic}/u.test(before);
  if (code >= 0x180b && code <= 0x180f) return /(?=\p{L})\p{Script=Mongolian}/u.test(before);
  return false;
}

/** The whole character before an offset, a surrogate pair included. */
function characterBefore(text: string, offset: number): string {
  if (offset === 0) return "";
  const last = text.charCodeAt(offset - 1);
  const start = last >= 0xdc00 && last <= 0xdfff && offset >= 2 ? offset - 2 : offset - 1;
  return text.slice(start, offset);
}
