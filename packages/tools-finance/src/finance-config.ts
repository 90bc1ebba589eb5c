/**
 * @module The finance toolkit's configuration: which provider answers, the reference of its key (never the
 * key), where it answers (a proxy, or a fake in tests) and how many symbols one quote may ask for.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";
import { PROVIDER_NAMES } from "./finance-provider.js";

export const DEFAULT_MAX_SYMBOLS = 10;
/** One request per symbol for both vendors: more than this in one call is a screen, not a quote. */
export const MAX_SYMBOLS = 25;

export const FinanceConfigSchema = z
  .strictObject({
    // No default: Yahoo refuses most non-browser clients (ranaroussi/yfinance#2422), so keyless yfinance is
    // a choice a deployment makes knowingly, never one it gets by leaving the provider out.
    provider: z.enum(PROVIDER_NAMES).meta({
      description:
        "who answers, required: financial-datasets (api.financialdatasets.ai, an API key; quotes and fundamentals), openbb (an OpenBB Platform API the deployment runs, at baseUrl; quotes and fundamentals, as complete as its data provider's) or yfinance (Yahoo Finance, no key: quotes from its chart endpoint and fundamentals from quoteSummary in an anonymous cookie-and-crumb session, reaching fc.yahoo.com too; Yahoo often refuses server clients with 429)",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the credential resolved per call: financial-datasets' API key (required), or for openbb the base64 of its API's user:password when basic auth is on; refused for yfinance",
    }),
    openbbProvider: z
      .string()
      .regex(/^[a-z][a-z0-9_]{0,39}$/, "an OpenBB data provider's name, e.g. yfinance, fmp, intrinio")
      .optional()
      .meta({
        description:
          "for openbb: the data provider it asks (its `provider` parameter); its default when unset",
      }),
    baseUrl: apiRootUrl()
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
    if (config.provider === "openbb" && config.baseUrl === undefined) {
      issues.addIssue({
        code: "custom",
        path: ["baseUrl"],
        message: "openbb needs the URL of the deployment's OpenBB API",
      });
    }
    if (config.provider !== "openbb" && config.openbbProvider !== undefined) {
      issues.addIssue({
        code: "custom",
        path: ["openbbProvider"],
        message: "only openbb takes an openbbProvider",
      });
    }
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
