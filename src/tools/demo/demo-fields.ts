/** @module The bounded input fields the demo tools share, and the limits every demo call runs under. */
import { z } from "zod";

/**
 * Each call is a few indexed statements on a small file, so ten seconds is generous; 256 KiB holds a full
 * page of 100 rows at the longest names the inputs allow, with their table.
 */
export const DEMO_READ_LIMITS = { timeoutMs: 10_000, outputBytes: 256 * 1024 } as const;

/** A write returns one id and a sentence. */
export const DEMO_WRITE_LIMITS = { timeoutMs: 10_000, outputBytes: 4 * 1024 } as const;

const MAX_TEXT_CHARS = 5_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;
/** Tabs and line breaks are fine in a longer text; other control characters are not. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const NO_CONTROL_CHARACTERS_BUT_LINES = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** A name, subject or title: trimmed, not blank, one line. */
export function lineField(maxChars: number, description: string) {
  return z
    .string()
    .trim()
    .min(1)
    .max(maxChars)
    .regex(NO_CONTROL_CHARACTERS, "must be one line without control characters")
    .describe(description);
}

/** A body or description: may span lines; stored as given. `minChars` 1 makes an empty text invalid. */
export function textField(description: string, minChars: 0 | 1 = 0) {
  return z
    .string()
    .min(minChars)
    .max(MAX_TEXT_CHARS)
    .regex(
      NO_CONTROL_CHARACTERS_BUT_LINES,
      "must not contain control characters other than tabs and line breaks",
    )
    .describe(description);
}

/** A record id as crm_read shows it. */
export function idField(description: string) {
  return z.number().int().min(1).max(1_000_000_000).describe(description);
}
