/** @module The GitHub toolkit's configuration, as a config file or a host gives it. */
import { z } from "zod";

export const GithubConfigSchema = z.strictObject({
  credentialRef: z.string().min(1).default("github").meta({
    description:
      "the credential GitHub's requests carry, resolved per call (a PAT, a GitHub App installation token or an OAuth token)",
  }),
  baseUrl: z
    .url({ protocol: /^https?$/ })
    .default("https://api.github.com")
    .meta({
      description:
        "the REST API root: https://api.github.com, or https://HOST/api/v3 for GitHub Enterprise Server",
    }),
  maxItems: z
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .meta({ description: "the most items a list or search tool returns, following pages" }),
});

export type GithubConfig = z.output<typeof GithubConfigSchema>;
