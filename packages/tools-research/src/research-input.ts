/**
 * @module `research_search`'s input. Every field is bounded here, so a value no source would take is
 * refused with `invalid_input` before any request: a one-line query, known sources, a count within the
 * deployment's cap, real calendar days in order, and a Wikipedia edition code that can only name a host label.
 */
import { hasHiddenCharacters } from "toolreg/toolkit";
import { z } from "zod";
import { LANGUAGE, MAX_RESULTS } from "./research-config.js";
import { SORT_ORDERS, SOURCE_NAMES } from "./research-source.js";

export const MAX_QUERY_CHARS = 300;

/** A calendar day that exists, `YYYY-MM-DD`, from 1900 (before every source's records) to 2999. */
const day = z
  .string()
  .regex(/^(19|2\d)\d{2}-\d{2}-\d{2}$/, "a day as YYYY-MM-DD")
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, "a day that exists in the calendar");

export const ResearchInputSchema = z
  .strictObject({
    query: z
      .string()
      .min(1)
      .max(MAX_QUERY_CHARS)
      .refine((query) => query.trim().length > 0, "the query is blank")
      .refine(
        (query) => !hasHiddenCharacters(query),
        "control and invisible characters are not allowed in a query",
      )
      .describe(
        `what to search for: a few keywords or a title (one line, at most ${MAX_QUERY_CHARS} characters)`,
      ),
    sources: z
      .array(z.enum(SOURCE_NAMES))
      .min(1)
      .max(SOURCE_NAMES.length)
      .refine((names) => new Set(names).size === names.length, "names a source twice")
      .optional()
      .describe(
        "which sources to search: wikipedia (encyclopedia articles), arxiv (preprints in physics, maths, CS and more), pubmed (biomedical literature), hackernews (tech community stories); default all the deployment enabled",
      ),
    maxResults: z
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .optional()
      .describe(
        "how many results each source returns (the deployment's maxResults by default, and at most that)",
      ),
    sort: z
      .enum(SORT_ORDERS)
      .optional()
      .describe("relevance (default) or date: newest first (for Wikipedia, the last edit)"),
    from: day
      .optional()
      .describe("only records published on or after this day, YYYY-MM-DD (UTC); leaves Wikipedia out"),
    to: day
      .optional()
      .describe("only records published on or before this day, YYYY-MM-DD (UTC); leaves Wikipedia out"),
    language: z
      .string()
      .regex(LANGUAGE, "a Wikipedia edition code such as en, de or simple")
      .optional()
      .describe(
        "the Wikipedia edition to search, e.g. en, de, fr, simple (the deployment's default otherwise)",
      ),
  })
  .refine((input) => input.from === undefined || input.to === undefined || input.from <= input.to, {
    message: "from is after to",
    path: ["from"],
  });

export type ResearchInput = z.output<typeof ResearchInputSchema>;
