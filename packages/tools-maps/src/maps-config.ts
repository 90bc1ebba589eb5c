/**
 * @module The maps toolkit's configuration: which provider answers, the reference of Google's key (never
 * the key), Nominatim's identifying User-Agent and pacing, where the provider answers (a proxy, a
 * self-hosted Nominatim, or a fake in tests) and how many places one search returns.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";
import { PROVIDER_NAMES } from "./maps-provider.js";
import { NOMINATIM_BASE_URL, NOMINATIM_MIN_INTERVAL_MS } from "./nominatim-provider.js";

export const DEFAULT_MAX_RESULTS = 10;
/** Google's pageSize tops out at 20 (Nominatim's limit at 40): the stricter bound for both. */
export const MAX_RESULTS = 20;

export const MapsConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).default("google").meta({
      description:
        "who answers: google (Places API (New), an API key) or nominatim (OpenStreetMap's geocoder, no key, one request a second)",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the credential Google's API key is resolved from, per call; required for google, refused for nominatim",
    }),
    userAgent: z
      .string()
      .min(8)
      .max(200)
      .regex(/^[\x20-\x7E]+$/, "printable ASCII on one line")
      .refine((value) => value.trim().toLowerCase() !== "toolreg", "name your application, not toolreg")
      .optional()
      .meta({
        description:
          "for nominatim, required: the User-Agent naming your application and a contact, as its usage policy asks (e.g. 'acme-assistant/1.0 ops@acme.example')",
      }),
    baseUrl: apiRootUrl().optional().meta({
      description: "replaces the provider's API root (a proxy, a self-hosted Nominatim, or a fake in tests)",
    }),
    minIntervalMs: z
      .int()
      .min(0)
      .max(60_000)
      .optional()
      .meta({
        description: `for nominatim: the least time between two requests (default ${NOMINATIM_MIN_INTERVAL_MS}; below that only for a self-hosted instance named in baseUrl)`,
      }),
    ratingAndWebsite: z.boolean().optional().meta({
      description:
        "for google: also ask for each place's rating, rating count and website. Off by default because Google bills a search at the dearest SKU its fields need, and these move every search from Text Search Pro to the dearer Text Search Enterprise",
    }),
    maxResults: z
      .int()
      .min(1)
      .max(MAX_RESULTS)
      .default(DEFAULT_MAX_RESULTS)
      .meta({
        description: `the most places one search returns (at most ${MAX_RESULTS}); a model may ask for fewer`,
      }),
  })
  .superRefine((config, issues) => {
    const problem = (path: string, message: string) =>
      issues.addIssue({ code: "custom", path: [path], message });
    if (config.provider === "google") {
      if (config.credentialRef === undefined)
        problem("credentialRef", "google needs the reference of its API key");
      if (config.userAgent !== undefined) problem("userAgent", "only nominatim takes a userAgent");
      if (config.minIntervalMs !== undefined) problem("minIntervalMs", "only nominatim is paced");
      return;
    }
    if (config.ratingAndWebsite !== undefined) {
      problem(
        "ratingAndWebsite",
        "only google is billed by field; nominatim returns websites where it has them",
      );
    }
    if (config.credentialRef !== undefined) problem("credentialRef", "nominatim takes no API key");
    if (config.userAgent === undefined) {
      problem("userAgent", "nominatim's usage policy requires a User-Agent identifying your application");
    }
    // By host name, not by whether baseUrl is set: naming the public instance does not make it self-hosted.
    const host = new URL(config.baseUrl ?? NOMINATIM_BASE_URL).hostname.replace(/\.$/, "").toLowerCase();
    if (
      host === new URL(NOMINATIM_BASE_URL).hostname &&
      config.minIntervalMs !== undefined &&
      config.minIntervalMs < NOMINATIM_MIN_INTERVAL_MS
    ) {
      problem("minIntervalMs", "the public Nominatim allows at most one request per second");
    }
  });

export type MapsConfig = z.output<typeof MapsConfigSchema>;
