/**
 * @module The Confluence toolkit's configuration: which Confluence Cloud site (its URL, or its cloud id for
 * OAuth 3LO and scoped API tokens), the reference of the credential (never the credential), and the bounds
 * on what one call returns. `apiUrl` replaces the API root for a proxy or a test's fake.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";

/** Search and list calls: at most this many items, whatever a model asks for. */
export const MAX_ITEMS = 100;
/** A page's markdown beyond this is cut (and said to be): a model's context is not a wiki export. */
export const DEFAULT_MAX_PAGE_CHARS = 60_000;

export const ConfluenceConfigSchema = z
  .strictObject({
    credentialRef: z.string().min(1).max(200).default("confluence").meta({
      description:
        "the credential Confluence's requests carry, resolved per call: an Atlassian account e-mail and API token stored as email:token (sent as HTTP Basic), or an OAuth 2.0 (3LO) access token (sent as Bearer)",
    }),
    siteUrl: apiRootUrl({ what: "a site URL such as https://acme.atlassian.net", httpsOnly: true })
      .optional()
      .meta({
        description:
          "the site, https://<your-domain>.atlassian.net: where a classic API token (email:token) is accepted",
      }),
    // Atlassian's cloud ids are UUID-shaped but not RFC 9562 UUIDs (their variant bits vary), so the shape is checked.
    cloudId: z
      .string()
      .regex(
        /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
        "a cloud id as accessible-resources gives it",
      )
      .optional()
      .meta({
        description:
          "the site's cloud id: requests then go to https://api.atlassian.com/ex/confluence/<cloudId>, where OAuth 2.0 (3LO) tokens and scoped API tokens are accepted",
      }),
    apiUrl: apiRootUrl().optional().meta({
      description:
        "replaces the API root the site or cloud id gives (a proxy, or a fake in tests); /wiki/... paths go below it",
    }),
    maxItems: z
      .int()
      .min(1)
      .max(MAX_ITEMS)
      .default(25)
      .meta({ description: `the most search results or spaces one call returns (at most ${MAX_ITEMS})` }),
    maxPageChars: z
      .int()
      .min(1000)
      .max(500_000)
      .default(DEFAULT_MAX_PAGE_CHARS)
      .meta({ description: "the most characters of a page's markdown confluence_get_page returns" }),
  })
  .refine((config) => (config.siteUrl === undefined) !== (config.cloudId === undefined), {
    message: "name the site with exactly one of siteUrl or cloudId",
    path: ["siteUrl"],
  });

export type ConfluenceConfig = z.output<typeof ConfluenceConfigSchema>;

/** The root every /wiki/... path goes below: apiUrl, else the OAuth gateway for a cloud id, else the site. */
export function apiRootOf(config: ConfluenceConfig): string {
  const root =
    config.apiUrl ??
    (config.cloudId !== undefined
      ? `https://api.atlassian.com/ex/confluence/${config.cloudId}`
      : (config.siteUrl as string));
  return root.replace(/\/+$/, "");
}
