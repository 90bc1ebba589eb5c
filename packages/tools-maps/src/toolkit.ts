/**
 * @module The maps toolkit: `place_search` behind Google Places (New) or OpenStreetMap Nominatim, chosen by
 * the deployment. Each request goes through egress to that provider's host only; Google's key is injected
 * there in X-Goog-Api-Key, Nominatim takes none.
 */
import { defineToolkit } from "toolreg/toolkit";
import { createGooglePlacesProvider, GOOGLE_PLACES_BASE_URL } from "./google-places-provider.js";
import { type MapsConfig, MapsConfigSchema } from "./maps-config.js";
import type { MapsEnv } from "./maps-env.js";
import {
  createNominatimProvider,
  NOMINATIM_BASE_URL,
  NOMINATIM_MIN_INTERVAL_MS,
} from "./nominatim-provider.js";
import { placeSearch } from "./place-search.js";

export const mapsToolkit = defineToolkit<MapsConfig, MapsEnv>({
  id: "maps",
  version: "0.1.0",
  package: "@toolreg/tools-maps",
  description:
    "Place search by text, near a point if asked, with Google Places (New) or OpenStreetMap Nominatim.",
  config: MapsConfigSchema,
  // One placement per toolkit fits one vendor: this names Google's, and bind injects it only for google
  // (Nominatim takes no key), as the search toolkit does for its keyless SearXNG.
  auth: { kind: "api-key", header: "x-goog-api-key" },
  hosts: [new URL(GOOGLE_PLACES_BASE_URL).hostname, new URL(NOMINATIM_BASE_URL).hostname],
  tools: [placeSearch],
  bind(config, host): MapsEnv {
    if (config.provider === "google") {
      const baseUrl = config.baseUrl ?? GOOGLE_PLACES_BASE_URL;
      // The schema requires a credentialRef for google: its absence is a broken invariant.
      if (config.credentialRef === undefined)
        throw new TypeError("toolkit maps: google needs a credentialRef");
      const egress = host.egress({
        hosts: [new URL(baseUrl).hostname],
        credential: { header: "x-goog-api-key", credentialRef: config.credentialRef },
      });
      return {
        provider: createGooglePlacesProvider(
          { baseUrl, egress, credentialRef: config.credentialRef },
          config.ratingAndWebsite ?? false,
        ),
        maxResults: config.maxResults,
      };
    }
    const baseUrl = config.baseUrl ?? NOMINATIM_BASE_URL;
    // The schema requires a userAgent for nominatim: its absence is a broken invariant.
    if (config.userAgent === undefined) throw new TypeError("toolkit maps: nominatim needs a userAgent");
    const egress = host.egress({ hosts: [new URL(baseUrl).hostname] });
    return {
      provider: createNominatimProvider(
        { baseUrl, egress, userAgent: config.userAgent },
        config.minIntervalMs ?? NOMINATIM_MIN_INTERVAL_MS,
      ),
      maxResults: config.maxResults,
    };
  },
});
