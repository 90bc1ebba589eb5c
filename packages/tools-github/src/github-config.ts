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
  webUrl: z
    .url({ protocol: /^https?$/ })
    .optional()
    .meta({
      description:
        "where users sign in, for OAuth consent (its /login/oauth/authorize and /login/oauth/access_token): by default https://github.com for api.github.com, https://SUBDOMAIN.ghe.com for api.SUBDOMAIN.ghe.com, else the API host's origin (GitHub Enterprise Server)",
    }),
  maxItems: z
    .int()
    .min(1)
    .max(1000)
    .default(100)
    .meta({ description: "the most items a list or search tool returns, following pages" }),
});

export type GithubConfig = z.output<typeof GithubConfigSchema>;

/** GitHub's OAuth endpoints for a configuration: on the web host its users sign in to, not the API host. */
export function githubOAuthEndpoints(config: Pick<GithubConfig, "baseUrl" | "webUrl">): {
  authorizeUrl: string;
  tokenUrl: string;
} {
  const web = (config.webUrl ?? webOriginOf(new URL(config.baseUrl))).replace(/\/$/, "");
  return { authorizeUrl: `${web}/login/oauth/authorize`, tokenUrl: `${web}/login/oauth/access_token` };
}

function webOriginOf(api: URL): string {
  if (api.hostname === "api.github.com") return "https://github.com";
  // GitHub Enterprise Cloud with data residency: the API of SUBDOMAIN.ghe.com is api.SUBDOMAIN.ghe.com.
  if (/^api\.[^.]+\.ghe\.com$/.test(api.hostname)) return `${api.protocol}//${api.hostname.slice(4)}`;
  return api.origin;
}
