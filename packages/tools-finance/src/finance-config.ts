/**
 * @module The finance toolkit's configuration: which provider answers, the reference of its key (never the
 * key), where it answers (a proxy, or a fake in tests) and how many symbols one quote may ask for.
 */
import { z } from "zod";
import { PROVIDER_NAMES } from "./finance-provider.js";

export const DEFAULT_MAX_SYMBOLS = 10;
/** One request per symbol for both vendors: more than this in one call is a screen, not a quote. */
export const MAX_SYMBOLS = 25;

export const FinanceConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).default("yfinance").meta({
      description:
        "who answers: yfinance (Yahoo Finance's public chart endpoint, no key; quotes only) or financial-datasets (api.financialdatasets.ai, an API key; quotes and fundamentals)",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the credential the provider's API key is resolved from, per call; required for financial-datasets, refused for yfinance",
    }),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .refine((value) => {
        const url = new URL(value);
        return url.username === "" && url.password === "" && url.search === "" && url.hash === "";
      }, "a root URL without a query, a fragment or credentials (a key goes in credentialRef)")
      .optional()
      .meta({ description: "replaces the vendor's API root (a proxy, or a fake in tests)" }),
    maxSymbols: z
      .int()
      .min(1)
      .max(MAX_SYMBOLS)
      .default(DEFAULT_MAX_SYMBOLS)
      .meta({ description: `the most symbols one stock_quote call may ask for (at most ${MAX_SYMBOLS})` }),
  })
  .superRefine((config, issues) => {
    if (config.provider === "yfinance" && config.credentialRef !== undefined) {
      issues.addIssue({ code: "custom", path: ["credentialRef"], message: "yfinance takes no API key" });
    }
    if (config.provider === "financial-datasets" && config.credentialRef === undefined) {
      issues.addIssue({
        code: "custom",
        path: ["credentialRef"],
        message: "financial-datasets needs the reference of its API key",
      });
    }
  });

export type FinanceConfig = z.output<typeof FinanceConfigSchema>;
