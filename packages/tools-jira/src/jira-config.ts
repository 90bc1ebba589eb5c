/**
 * @module The Jira toolkit's configuration. Where requests go depends on the credential a tenant connects:
 * an OAuth 2.0 (3LO) token, or a scoped API token, is accepted only at `https://api.atlassian.com/ex/jira/
 * {cloudId}`, a classic API token at the site itself (`https://<site>.atlassian.net`), so a deployment names
 * one of them. `apiUrl` replaces where requests go (a proxy, or a test's fake).
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";

/** Atlassian's gateway for OAuth 2.0 (3LO) and scoped-token requests to one cloud site. */
export const ATLASSIAN_API_HOST = "api.atlassian.com";

export const JiraConfigSchema = z
  .strictObject({
    credentialRef: z.string().min(1).max(200).default("jira").meta({
      description:
        "the credential Jira's requests carry, resolved per call: an Atlassian account e-mail and API token stored as email:token (sent as HTTP Basic), or an OAuth 2.0 (3LO) access token (sent as Bearer)",
    }),
    // https only: a classic API token goes to the site as HTTP Basic, readable by anyone on the path otherwise.
    siteUrl: apiRootUrl({ what: "a site URL such as https://acme.atlassian.net", httpsOnly: true })
      .optional()
      .meta({
        description:
          "the Jira site, https://<site>.atlassian.net: requests go there (classic API tokens), and issue links point there",
      }),
    cloudId: z
      .string()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, "a cloud id is a UUID")
      .optional()
      .meta({
        description:
          "the site's cloud id (https://<site>.atlassian.net/_edge/tenant_info gives it): requests go to https://api.atlassian.com/ex/jira/<cloudId>, as OAuth 2.0 tokens and scoped API tokens require",
      }),
    apiUrl: apiRootUrl({ what: "an API root" }).optional().meta({
      description:
        "replaces where requests go (a proxy, or a fake in tests); the paths /rest/api/3/… follow it",
    }),
    maxItems: z
      .int()
      .min(1)
      .max(200)
      .default(50)
      .meta({ description: "the most issues or projects a search or list returns in one call" }),
    maxPages: z.int().min(1).max(20).default(5).meta({
      description: "the most pages one search or list requests before it stops and says there is more",
    }),
  })
  .refine((config) => (config.siteUrl === undefined) !== (config.cloudId === undefined), {
    message: "name the Jira site by siteUrl or by cloudId (one of them)",
    path: ["siteUrl"],
  });

export type JiraConfig = z.output<typeof JiraConfigSchema>;

/** Where `/rest/api/3/…` lives for this configuration. */
export function apiRootOf(config: JiraConfig): string {
  const root =
    config.apiUrl ??
    (config.cloudId !== undefined
      ? `https://${ATLASSIAN_API_HOST}/ex/jira/${config.cloudId}`
      : config.siteUrl);
  return (root ?? "").replace(/\/+$/, "");
}
