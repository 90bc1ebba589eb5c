/**
 * @module The compact description of a tool: its first sentence, shortened to about sixty characters
 * without leaving a parenthesis open. The name says the rest, and find_tools or learn_tools give the
 * whole text.
 */

import { sliceWhole } from "../../text/surrogates.js";

const MAX_DESCRIPTION = 60;
/** Characters read: a first sentence is short, and past this a description is cut anyway. */
const MAX_READ = 2_000;

/**
 * The first sentence; when that is long, without its asides in parentheses, then up to the first clause
 * break past a third of the length; and at most about sixty characters, cut at a word. Sentence ends and
 * clause breaks inside parentheses do not count.
 */
export function compactDescription(description: string): string {
  const text = sliceWhole(description, MAX_READ).trim().replace(/\s+/g, " ");
  let sentence = firstSentence(text);
  if (sentence.length > MAX_DESCRIPTION) {
    const bare = withoutAsides(sentence);
    // A sentence that is all aside ("(Deprecated; use x instead.)") keeps it.
    if (/[\p{L}\p{N}]/u.test(bare)) sentence = bare;
  }
  if (sentence.length > MAX_DESCRIPTION) {
    const clause = clauseBreak(sentence, MAX_DESCRIPTION / 3);
    if (clause >= 0) sentence = `${sentence.slice(0, clause).trimEnd()}.`;
  }
  if (sentence.length <= MAX_DESCRIPTION) return sentence;
  return `${cutAtWord(sliceWhole(sentence, MAX_DESCRIPTION))}…`;
}

/** Up to the first `.`, `!` or `?` outside parentheses that ends the text or comes before a capital. */
function firstSentence(text: string): string {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (character === "(") depth++;
    else if (character === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && (character === "." || character === "!" || character === "?")) {
      // "e.g. a page" does not end a sentence; "a page. Then" does.
      if (i === text.length - 1 || (text[i + 1] === " " && /\p{Lu}/u.test(text[i + 2] ?? ""))) {
        return text.slice(0, i + 1);
      }
    }
  }
  return text;
}

/**
 * The text without its asides: each parenthesis opened after a space (or at the start) up to the one
 * that closes it, nested ones included, in one pass. `f(x)` is not an aside; an aside never closed leaves
 * the text as it was.
 */
function withoutAsides(text: string): string {
  let kept = "";
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const character = text[i]!;
    if (depth > 0) {
      if (character === "(") depth++;
      else if (character === ")") depth--;
    } else if (character === "(" && (i === 0 || text[i - 1] === " ")) {
      depth = 1;
      kept = kept.trimEnd();
    } else {
      kept += character;
    }
  }
  return depth > 0 ? text : kept.trim();
}

/** Where the first `,`, `;`, `:` or `—` followed by a space, outside parentheses, at or past `from` is; -1 if none. */
function clauseBreak(text: string, from: number): number {
  let depth = 0;
  for (let i = 0; i < text.length - 1; i++) {
    const character = text[i]!;
    if (character === "(") depth++;
    else if (character === ")") depth = Math.max(0, depth - 1);
    else if (depth === 0 && i >= from && ",;:—".includes(character) && text[i + 1] === " ") return i;
  }
  return -1;
}

/** The text cut at its last word past the middle, never inside a parenthesis it opened. */
function cutAtWord(text: string): string {
  const unclosed: number[] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === "(") unclosed.push(i);
    else if (text[i] === ")") unclosed.pop();
  }
  let cut = text;
  if (unclosed.length > 0) {
    const before = text.slice(0, unclosed[0]).trimEnd();
    // Cut before the first parenthesis left open; when little comes before it, drop the open ones instead.
    cut =
      before.length >= MAX_DESCRIPTION / 3
        ? before
        : text
            .split("")
            .filter((_, i) => !unclosed.includes(i))
            .join("");
  }
  const space = cut.lastIndexOf(" ");
  if (space > MAX_DESCRIPTION / 2) cut = cut.slice(0, space);
  return cut.trimEnd().replace(/[,;:]$/, "");
}
