/** @module The Linear toolkit's configuration, as a config file or a host gives it: never the key itself. */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";

export const LINEAR_GRAPHQL_URL = "https://api.linear.app/graphql";
/** The most items one list call returns at most, whatever a deployment sets. */
export const MAX_ITEMS_CEILING = 250;

export const LinearConfigSchema = z.strictObject({
  credentialRef: z.string().min(1).max(200).default("linear").meta({
    description:
      "the credential a personal Linear API key (lin_api_…) is resolved from, per call; Linear takes it bare in Authorization, without Bearer",
  }),
  endpoint: apiRootUrl({ what: "an endpoint" })
    .default(LINEAR_GRAPHQL_URL)
    .meta({ description: "Linear's GraphQL endpoint; a proxy, or a fake in tests" }),
  maxItems: z
    .int()
    .min(1)
    .max(MAX_ITEMS_CEILING)
    .default(50)
    .meta({
      description: `the most issues, teams or states a list tool returns in one call (at most ${MAX_ITEMS_CEILING}); a model may ask for fewer`,
    }),
});

export type LinearConfig = z.output<typeof LinearConfigSchema>;
