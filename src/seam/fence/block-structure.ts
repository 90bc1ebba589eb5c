/**
 * @module Markdown's block structure in untrusted text, escaped so it reads as the characters it is: headings
 * (`# Title`, or a line underlined with `===` or `---`), thematic breaks (`***`, `- - -`, `___`) and runs of
 * backticks or tildes that could close a code block the host wrapped around the text.
 */

/**
 * Characters whose compatibility form (NFKC) begins with a space: spacing accents (`¨`, `´`, `˘`), Greek
 * breathings, Arabic isolated vowel signs, and spaces the fold already makes plain. A reader of that form
 * sees `#¨` as `# ̈`, a heading; a test walks all of Unicode to hold the list to it.
 */
export const SPACE_FORM =
  /[\u00a0\u00a8\u00af\u00b4\u00b8\u02d8-\u02dd\u037a\u0384\u0385\u1fbd\u1fbf-\u1fc1\u1fcd-\u1fcf\u1fdd-\u1fdf\u1fed\u1fee\u1ffd\u1ffe\u2000-\u200a\u2017\u202f\u203e\u205f\u3000\u309b\u309c\ufc5e-\ufc63\ufe49-\ufe4c\ufe70\ufe72\ufe74\ufe76\ufe78\ufe7a\ufe7c\ufe7e\uffe3]/;

/**
 * At the start of a line: an ATX heading's hashes (before a space, a tab, the end, or one of those); a
 * setext heading's underline (a line of `=` or of `-`, of any length, under a line of text); a thematic
 * break (three or more `*`, `-` or `_`, spaces between allowed). Every underline is escaped, whatever the line above it: a `===` under a blank line is not a
 * heading, but escaping it costs a backslash, and the line above may be the fence's own.
 */
const LINE_STRUCTURE = new RegExp(
  `^([ \\t]*)(?:(#{1,6})(?=[ \\t]|$|${SPACE_FORM.source})|([=-])(?=\\3*[ \\t]*$)|([-*_])(?=(?:[ \\t]*\\4){2,}[ \\t]*$))`,
  "gm",
);

/** Three or more backticks or tildes. */
const CODE_FENCE = /`{3,}|~{3,}/g;

/**
 * The text with its block structure escaped, as the ATX heading always was: a backslash before each `#` of
 * a heading, before the first character of an underline or a thematic break, and before each backtick or
 * tilde of a code fence. A Markdown reader shows the same characters; none of them makes structure.
 */
export function escapeBlockStructure(text: string): string {
  return text
    .replace(
      LINE_STRUCTURE,
      (
        _match,
        indent: string,
        hashes: string | undefined,
        underline: string | undefined,
        rule: string | undefined,
      ) => (hashes ? `${indent}${"\\#".repeat(hashes.length)}` : `${indent}\\${underline ?? rule ?? ""}`),
    )
    .replace(CODE_FENCE, (run) => run.replace(/[`~]/g, (char) => `\\${char}`));
}
