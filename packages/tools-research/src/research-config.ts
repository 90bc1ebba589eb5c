/**
 * @module The research toolkit's configuration: which of the four sources this deployment searches, where
 * each answers (a proxy, or a fake in tests), how many results a source gives at most, the default
 * Wikipedia edition, the contact NCBI asks for, NCBI's optional API key (a credentialRef: egress places it
 * in `api_key`), and how far apart arXiv's and NCBI's requests are kept. No other source takes a key.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";
import { SOURCE_NAMES } from "./research-source.js";

export const DEFAULT_MAX_RESULTS = 5;
/** The most one source returns for one search: enough to choose from, little enough to read. */
export const MAX_RESULTS = 20;
/** A Wikipedia edition's code: `en`, `de`, `simple`, `zh-yue`, `be-tarask`. */
export const LANGUAGE = /^[a-z]{2,12}(?:-[a-z]{2,8}){0,2}$/;
/** Stands for the edition in the Wikipedia base URL. */
export const LANGUAGE_SLOT = "{lang}";

/** arXiv's terms of use: no more than one request every three seconds. */
export const ARXIV_INTERVAL_MS = 3000;
/**
 * NCBI's usage guidelines: no more than three requests a second without an API key. A third of a second
 * exactly is not enough: requests spaced 334 ms apart arrive with some jitter, and a fourth can land inside
 * the same second as NCBI counts it (the fake's test shows it), so 400 ms leaves the margin.
 */
export const PUBMED_INTERVAL_MS = 400;
/** With an API key NCBI takes ten a second: 100 ms, with the same margin for jitter. */
export const PUBMED_KEYED_INTERVAL_MS = 120;

const rootUrl = apiRootUrl();

/** The Wikipedia root with `{lang}` where the edition goes: as the leftmost host label, or in the path. */
const wikipediaRoot = z
  .string()
  .max(300)
  .refine((value) => value.split(LANGUAGE_SLOT).length === 2, `names the edition once, as ${LANGUAGE_SLOT}`)
  .refine((value) => {
    const filled = value.replace(LANGUAGE_SLOT, "xlangx");
    if (!rootUrl.safeParse(filled).success) return false;
    const host = new URL(filled).hostname;
    return !host.includes("xlangx") || (host.startsWith("xlangx.") && host.split("xlangx").length === 2);
  }, `an http(s) root URL whose leftmost host label or path holds ${LANGUAGE_SLOT}`);

export const ResearchConfigSchema = z.strictObject({
  sources: z
    .array(z.enum(SOURCE_NAMES))
    .min(1)
    .max(SOURCE_NAMES.length)
    .refine((names) => new Set(names).size === names.length, "names a source twice")
    .default([...SOURCE_NAMES])
    .meta({ description: "the sources research_search may ask (default all four)" }),
  baseUrls: z
    .strictObject({
      wikipedia: wikipediaRoot.optional(),
      arxiv: rootUrl.optional(),
      pubmed: rootUrl.optional(),
      hackernews: rootUrl.optional(),
    })
    .default({})
    .meta({
      description:
        "where each source answers, replacing the public API (a proxy, or a fake in tests); Wikipedia's holds {lang}, as in https://{lang}.wikipedia.org",
    }),
  maxResults: z
    .int()
    .min(1)
    .max(MAX_RESULTS)
    .default(DEFAULT_MAX_RESULTS)
    .meta({ description: `the most results one source returns per search (default ${DEFAULT_MAX_RESULTS})` }),
  wikipediaLanguage: z
    .string()
    .regex(LANGUAGE)
    .default("en")
    .meta({ description: "the Wikipedia edition searched when a call names none (default en)" }),
  credentialRef: z.string().min(1).max(200).optional().meta({
    description:
      "the name of an NCBI API key in the deployment's credential store, sent to E-utilities as api_key by egress: NCBI then takes ten requests a second instead of three",
  }),
  contactEmail: z.email().max(200).optional().meta({
    description:
      "the deployment's contact, sent to NCBI as `email` and in the User-Agent, as NCBI's and Wikimedia's policies ask",
  }),
  pacingMs: z
    .strictObject({
      arxiv: z.int().min(0).max(60_000).default(ARXIV_INTERVAL_MS),
      pubmed: z.int().min(0).max(10_000).optional(),
    })
    .default({ arxiv: ARXIV_INTERVAL_MS })
    .meta({
      description:
        "the least time between two requests to arXiv (its terms ask 3000 ms) and to NCBI (400 ms: under three a second without a key; 120 ms, under ten, with credentialRef)",
    }),
});

export type ResearchConfig = z.output<typeof ResearchConfigSchema>;
