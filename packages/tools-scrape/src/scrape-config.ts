/**
 * @module The scrape toolkit's configuration: which provider reads pages (a direct fetch through the
 * operator's egress policy, Firecrawl or Jina Reader), the reference of its key, and the user-agent token
 * robots.txt groups are matched against.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";

export const PROVIDER_NAMES = ["direct", "firecrawl", "jina"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const ScrapeConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).default("direct").meta({
      description:
        "who reads each page: direct (fetched through the operator's egress policy, main content extracted here), firecrawl or jina",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the credential the provider's API key is resolved from, per call: required for firecrawl, optional for jina (a keyless Reader is rate limited harder), refused for direct",
    }),
    baseUrl: apiRootUrl().optional().meta({
      description: "the provider's API root in place of the vendor's (a proxy, or a fake in tests)",
    }),
    userAgent: z
      .string()
      .regex(/^[A-Za-z_-]{1,40}$/, "a robots.txt product token: letters, '_' and '-' only (RFC 9309 2.2.1)")
      .default("toolreg")
      .meta({
        description:
          "the product token sent as User-Agent and matched against robots.txt groups (RFC 9309); the operator's crawler name",
      }),
  })
  .superRefine((config, issues) => {
    if (config.provider === "direct" && config.credentialRef !== undefined)
      issues.addIssue({ code: "custom", path: ["credentialRef"], message: "direct takes no API key" });
    if (config.provider === "direct" && config.baseUrl !== undefined)
      issues.addIssue({ code: "custom", path: ["baseUrl"], message: "direct has no API root" });
    if (config.provider === "firecrawl" && config.credentialRef === undefined)
      issues.addIssue({
        code: "custom",
        path: ["credentialRef"],
        message: "firecrawl needs the reference of its API key",
      });
  });

export type ScrapeConfig = z.output<typeof ScrapeConfigSchema>;
