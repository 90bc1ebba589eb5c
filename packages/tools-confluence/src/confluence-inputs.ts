/**
 * @module Input fields the Confluence tools share, checked to Confluence's own forms before any request:
 * ids are the v2 API's int64 digits (its OpenAPI types page and space ids so), a space key is letters and
 * digits (or `~` and an account id for a personal space), and text carries no control or invisible
 * characters that could smuggle a second line or a hidden instruction into a page.
 */
import { hasHiddenCharacters } from "toolreg/toolkit";
import { z } from "zod";
import { markdownToStorage } from "./storage/markdown-to-storage.js";

/** A positive int64 in decimal: what `/pages/{id}` and `spaceId` take. */
const INT64_ID = /^[1-9][0-9]{0,18}$/;

export const pageIdField = z
  .string()
  .regex(INT64_ID, "a Confluence page id: digits only, as confluence_search or confluence_get_page gives it")
  .describe("the page's numeric id, e.g. 123456, as confluence_search gives it");

export const spaceIdField = z
  .string()
  .regex(
    INT64_ID,
    "a Confluence space id: digits only, as confluence_list_spaces gives it (a key such as ENG is not an id)",
  )
  .describe("the space's numeric id, as confluence_list_spaces gives it (not its key)");

export const spaceKeyField = z
  .string()
  .regex(
    /^(?:[A-Za-z0-9]{1,255}|~[A-Za-z0-9:_-]{1,128})$/,
    "a space key: letters and digits (ENG), or ~ and an account id for a personal space",
  );

/** Confluence's titles are at most 255 characters (its content title limit). */
export const titleField = z
  .string()
  .min(1)
  .max(255)
  .refine(
    (title) => title.trim() !== "" && !hasHiddenCharacters(title),
    "a title on one line, without control or invisible characters",
  )
  .describe("the page title, unique within its space");

/** Tabs and line breaks are markdown; any other control or invisible character is refused. */
export function markdownField(what: string, maxChars: number) {
  return (
    z
      .string()
      .max(maxChars, `at most ${maxChars} characters of markdown`)
      .refine((text) => text.trim() !== "", `the ${what} is empty`)
      .refine(
        (text) => !hasHiddenCharacters(text.replace(/[\t\n\r]/g, "")),
        "no control or invisible characters besides tabs and line breaks",
      )
      // Converted here, so markdown Confluence could not be given is refused before anyone approves the write.
      .superRefine((text, context) => {
        const problem = storageProblemOf(text);
        if (problem !== undefined) context.addIssue({ code: "custom", message: problem });
      })
  );
}

/** Why this markdown cannot be written as storage format, or undefined when it can. */
export function storageProblemOf(markdown: string): string | undefined {
  try {
    markdownToStorage(markdown);
    return undefined;
  } catch (error) {
    return `the markdown could not be written as a Confluence page: ${(error as Error).message}`;
  }
}

/** The most items a list or search asks for; the deployment's maxItems caps it. */
export const limitField = z
  .int()
  .min(1)
  .max(100)
  .optional()
  .describe("the most items to return (default and cap: the deployment's maxItems)");
