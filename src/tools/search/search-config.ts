/**
 * @module The search toolkit's configuration: which provider answers `web_search`, the reference of its
 * key, and where it answers. With no provider there is no tool.
 */

import { z } from "zod";
import { apiRootUrl } from "../toolkit/api-root.js";
import { PROVIDER_NAMES } from "./search-provider.js";

export const DEFAULT_MAX_RESULTS = 10;
/** The most any of the four vendors returns for one request (Brave's and Tavily's maximum). */
export const MAX_RESULTS = 20;

const baseUrlField = apiRootUrl().meta({
  description:
    "the API root: required for searxng (the instance, e.g. http://searxng:8080); for the others it replaces the vendor's (a proxy, or a fake in tests)",
});

export const SearchConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).optional().meta({
      description: "the search provider behind web_search; without one the tool does not exist",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the credential the provider's API key is resolved from, per call; required for brave, tavily and serper, refused for searxng",
    }),
    baseUrl: baseUrlField.optional(),
    maxResults: z
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .optional()
      .meta({
        description: `the most results one search returns (default ${DEFAULT_MAX_RESULTS}); a model may ask for fewer`,
      }),
  })
  .superRefine((config, issues) => {
    const problem = (path: string, message: string) =>
      issues.addIssue({ code: "custom", path: [path], message });
    if (config.provider === undefined) {
      // Settings without a provider are a half-finished configuration, not "search off".
      const given = (["credentialRef", "baseUrl", "maxResults"] as const).filter(
        (key) => config[key] !== undefined,
      );
      if (given.length > 0)
        problem("provider", `name the provider these settings are for (${given.join(", ")})`);
      return;
    }
    if (config.provider === "searxng") {
      if (config.baseUrl === undefined) problem("baseUrl", "searxng needs the instance's URL");
      if (config.credentialRef !== undefined) problem("credentialRef", "searxng takes no API key");
    } else if (config.credentialRef === undefined) {
      problem("credentialRef", `${config.provider} needs the reference of its API key`);
    }
  });

export type SearchConfig = z.output<typeof SearchConfigSchema>;
