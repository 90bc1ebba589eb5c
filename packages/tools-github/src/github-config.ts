/** @module The GitHub toolkit's configuration, as a config file or a host gives it. */
import { z } from "zod";

/**
 * Where GitHub's signed log downloads point (docs.github.com "Communication between self-hosted runners and
 * GitHub": logs, summaries and artifacts are served from *.actions.githubusercontent.com and Azure blob
 * storage, productionresultssa*.blob.core.windows.net today).
 */
export const GITHUB_LOG_HOSTS = ["*.actions.githubusercontent.com", "*.blob.core.windows.net"] as const;

export const GithubConfigSchema = z.strictObject({
  credentialRef: z.string().min(1).default("github").meta({
    description:
      "the credential GitHub's requests carry, resolved per call (a PAT, a GitHub App installation token or an OAuth token); not used when app is set",
  }),
  app: z
    .strictObject({
      appId: z
        .union([z.int().min(1), z.string().regex(/^[A-Za-z0-9._-]{1,100}$/)])
        .meta({ description: "the App's ID, or its client ID (Iv23…): the JWT's issuer" }),
      installationId: z
        .int()
        .min(1)
        .meta({ description: "the installation whose token is minted (the number in its settings URL)" }),
      privateKeyRef: z.string().min(1).meta({
        description:
          "a credentialRef resolving to the App's private key, the PEM GitHub generated (env:GITHUB_APP_PRIVATE_KEY, or one stored with toolreg credentials connect)",
      }),
    })
    .optional()
    .meta({
      description:
        "act as a GitHub App installation: each request carries an installation token minted from the App's private key (a JWT exchanged at POST /app/installations/{id}/access_tokens), kept per tenant until shortly before it expires. No user is asked for OAuth consent",
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
  logHosts: z
    .array(z.string().min(1))
    .min(1)
    .default([...GITHUB_LOG_HOSTS])
    .meta({
      description:
        "the hosts a job's log download may be redirected to (exact or *.suffix), reached without the GitHub credential: a signed download URL carries its own authorization. GitHub Enterprise Server names its own storage host",
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
