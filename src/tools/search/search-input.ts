/**
 * @module `web_search`'s input, bounded by the strictest of its vendors so a value one of them would
 * refuse is refused here first, with `invalid_input`, before any request.
 */
import { z } from "zod";
import { hasHiddenCharacters } from "../../text/hidden-characters.js";
import { MAX_RESULTS } from "./search-config.js";
import { FRESHNESS } from "./search-provider.js";

/** Brave's and Tavily's documented maximum query length. */
export const MAX_QUERY_CHARS = 400;

/** A DNS name in ASCII (an internationalised one in its xn-- form), with a letter-led top-level label. */
const DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/i;

export const SearchInputSchema = z.strictObject({
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
      "what to search for, as you would type it into a search engine (one line, at most 400 characters)",
    ),
  count: z
    .int()
    .min(1)
    .max(MAX_RESULTS)
    .optional()
    .describe("how many results to return (the deployment's maxResults by default, and at most that)"),
  freshness: z
    .enum(FRESHNESS)
    .optional()
    .describe("only results published or updated within the past day, week, month or year"),
  site: z
    .string()
    .regex(DOMAIN, "a domain such as nodejs.org: no scheme, path, port or address")
    .optional()
    .describe(
      "only results from this domain, e.g. nodejs.org; not every provider supports it, and the tool says so",
    ),
});

export type SearchInput = z.output<typeof SearchInputSchema>;
