/**
 * @module The input fields the Notion tools share, with Notion's own rules: ids are UUIDs, given dashed or as
 * the 32 hex digits a Notion URL ends with, and sent dashed; text carries no control or invisible characters
 * (a model's text is sent to colleagues' pages).
 */
import { hasHiddenCharacters } from "toolreg/toolkit";
import { z } from "zod";

const NOTION_ID = /^(?:[0-9a-f]{32}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

/** Dashed, lowercase: the form Notion returns, so ids a model passes back compare equal. */
export function dashedId(id: string): string {
  const hex = id.replace(/-/g, "").toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A Notion object id: a UUID, dashed or as 32 hex digits. */
export function idField(what: string) {
  return z
    .string()
    .regex(NOTION_ID, `must be a Notion ${what} id: a UUID, or the 32 hex digits at the end of its URL`)
    .transform(dashedId)
    .meta({ description: `the ${what}'s id (a UUID, or the 32 hex digits at the end of its Notion URL)` });
}

/**
 * Core's hidden-character pattern leaves out the line and paragraph separators (U+2028, U+2029): a second
 * line a reader does not see as one, and a character regular expressions treat as a line end. Refused here too.
 */
const SEPARATORS = /[\u2028\u2029]/;

const REFUSED = {
  lines: "must not contain control or invisible characters (line breaks and tabs are fine)",
  line: "must be one line without control or invisible characters",
};

/** Why `text` is refused as Notion text, or undefined when it is fine; `lines` lets line breaks and tabs through. */
export function textProblem(text: string, { lines = false } = {}): string | undefined {
  const visible = lines ? text.replace(/\r?\n|\t/g, "") : text;
  if (!hasHiddenCharacters(visible) && !SEPARATORS.test(visible)) return undefined;
  return lines ? REFUSED.lines : REFUSED.line;
}

/**
 * Text with no control character nor invisible one; `lines` lets line breaks and tabs through (markdown,
 * a comment), never a carriage return alone, a line separator (U+2028/2029) or the rest.
 */
export function textField(maxChars: number, description: string, { lines = false } = {}) {
  return z
    .string()
    .max(maxChars)
    .refine((text) => text.trim().length > 0, "must not be blank")
    .refine((text) => textProblem(text, { lines }) === undefined, lines ? REFUSED.lines : REFUSED.line)
    .meta({ description });
}

/** How many items a read returns: at most the deployment's bound, which the tool applies. */
export const limitField = z
  .int()
  .min(1)
  .max(100)
  .optional()
  .meta({ description: "the most items to return (the deployment's bound applies when lower)" });
