/**
 * @module Compatibility forms folded to ASCII (NFKC): a full-width `＃`, a small `﹟`, a no-break or
 * ideographic space before `#`, a role name in mathematical bold, all read as their ASCII selves to a model.
 */

/**
 * The code points of every character whose compatibility form (NFKC) is ASCII other than digits (a test
 * walks all of Unicode to hold them to it), so the rest of a page, a Chinese one say, is never looked at one
 * character at a time.
 */
const ASCII_FORM_RANGES: readonly (readonly [number, number])[] = [
  [0xa0, 0xba],
  [0x132, 0x133],
  [0x17f, 0x17f],
  [0x1c7, 0x1f3],
  [0x2b0, 0x2e3],
  [0x37e, 0x37e],
  [0x1d2c, 0x1dbb],
  [0x1fef, 0x20a8],
  [0x2100, 0x217f],
  [0x249c, 0x24e9],
  [0x2a74, 0x2a76],
  [0x2c7c, 0x2c7d],
  [0x3000, 0x3000],
  [0x3250, 0x3250],
  [0x32cc, 0x32cf],
  [0x3371, 0x33ff],
  [0xa7f1, 0xa7f4],
  [0xfb00, 0xfb29],
  [0xfe10, 0xfe6b],
  [0xff01, 0xff5e],
  [0x107a5, 0x107a5],
  [0x1ccd6, 0x1ccef],
  [0x1d400, 0x1d6a3],
  [0x1f110, 0x1f190],
];

/** One character in those ranges. */
export const HAS_ASCII_FORM = new RegExp(
  `[${ASCII_FORM_RANGES.map(([first, last]) => `\\u{${first.toString(16)}}-\\u{${last.toString(16)}}`).join("")}]`,
  "u",
);
const ANY_ASCII_FORM = new RegExp(HAS_ASCII_FORM.source, "gu");

/** Look-alikes of the characters markers are built from that NFKC leaves as they are. */
const LOOK_ALIKES: Record<string, string> = {
  "\u2329": "<", // angle brackets
  "\u232A": ">",
  "\u3008": "<",
  "\u3009": ">",
  "\u2758": "|", // light vertical bar
  "\u2223": "|", // divides
  "\u01C0": "|", // dental click
};
const ANY_LOOK_ALIKE = /[\u2329\u232A\u3008\u3009\u2758\u2223\u01C0]/g;

/**
 * The text with every compatibility form whose NFKC is ASCII folded to it, and the look-alikes above.
 * Typographic forms are spelled out as well (`™` as `TM`, `…` as `...`, `ﬁ` as `fi`): the words stay.
 */
export function foldAsciiForms(text: string): string {
  return text
    .replace(ANY_ASCII_FORM, (char) => asciiForms().get(char) ?? char)
    .replace(ANY_LOOK_ALIKE, (char) => LOOK_ALIKES[char] ?? char);
}

let forms: Map<string, string> | undefined;

/**
 * Each character of the ranges whose compatibility form is plain ASCII, with that form; made once, on
 * first use (a few thousand characters). A form with a digit is left out, so a superscript `²` or a
 * circled `①` stays as written, except a full-width digit's: a nonce written in full-width digits must
 * still be found.
 */
function asciiForms(): Map<string, string> {
  if (forms) return forms;
  forms = new Map();
  for (const [first, last] of ASCII_FORM_RANGES) {
    for (let code = first; code <= last; code++) {
      const char = String.fromCodePoint(code);
      const form = char.normalize("NFKC");
      const fullWidthDigit = code >= 0xff10 && code <= 0xff19;
      if (form !== char && /^[\x20-\x7E]+$/.test(form) && (fullWidthDigit || !/[0-9]/.test(form))) {
        forms.set(char, form);
      }
    }
  }
  return forms;
}
