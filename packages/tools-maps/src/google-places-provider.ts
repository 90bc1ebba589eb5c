/**
 * @module The Google Places API (New) adapter: `POST places.googleapis.com/v1/places:searchText` with the
 * key in `X-Goog-Api-Key` (egress injects it) and the fields wanted in `X-Goog-FieldMask`, which the API
 * requires and bills by (developers.google.com/maps/documentation/places/web-service/text-search); a
 * rating or a website costs the Enterprise SKU, so those are asked for only when the deployment opts in. The
 * request takes `textQuery`, `pageSize` (at most 20; the places:v1 discovery document marks the older
 * `maxResultCount` deprecated in its favour) and `locationBias.circle` {center, radius 0–50000 m}; the
 * answer is `{places: [...]}` (with `nextPageToken` when more exist; one page is read), or `{}` when
 * nothing matched. Errors are Google's
 * `{error: {code, message, status, details}}`: 400 INVALID_ARGUMENT (a refused key among them, with
 * reason API_KEY_INVALID), 403 PERMISSION_DENIED (the API not enabled for the key's project, or the key
 * restricted), 429 RESOURCE_EXHAUSTED (a quota), 500 INTERNAL, 503 UNAVAILABLE.
 */
import type { EgressResponse } from "toolreg/toolkit";
import {
  credentialFailure,
  endpointUrl,
  parseAnswer,
  quotaFailure,
  sendRequest,
  shortDetail,
  statusFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { MapsProvider, PlaceHit, ProviderSetup } from "./maps-provider.js";

export const GOOGLE_PLACES_BASE_URL = "https://places.googleapis.com";

/**
 * What is asked for, and billed: Google bills a Text Search at the dearest SKU among the fields in its
 * mask. These are Text Search Pro fields (the Places SDKs' text-search pages list each field's SKU).
 */
export const PRO_FIELDS = [
  "places.id",
  "places.displayName",
  "places.formattedAddress",
  "places.location",
  "places.types",
  "places.googleMapsUri",
] as const;
/** Text Search Enterprise fields: asking for any of them bills the whole request at that dearer SKU. */
export const ENTERPRISE_FIELDS = ["places.rating", "places.userRatingCount", "places.websiteUri"] as const;

/** The field mask sent: Pro fields only unless the deployment opted into ratings and websites. */
export function fieldMask(ratingAndWebsite: boolean): string {
  return [...PRO_FIELDS, ...(ratingAndWebsite ? ENTERPRISE_FIELDS : [])].join(",");
}

const GooglePlace = z.object({
  id: z.string(),
  displayName: z.object({ text: z.string(), languageCode: z.string().optional() }).optional(),
  formattedAddress: z.string().optional(),
  location: z.object({ latitude: z.number(), longitude: z.number() }).optional(),
  types: z.array(z.string()).optional(),
  rating: z.number().optional(),
  userRatingCount: z.number().int().optional(),
  googleMapsUri: z.string().optional(),
  websiteUri: z.string().optional(),
});
const SearchTextAnswer = z.object({ places: z.array(GooglePlace).optional() });
/** google.rpc.Status as the JSON APIs send it. */
const GoogleError = z.object({
  error: z.object({
    code: z.number().int(),
    message: z.string(),
    status: z.string(),
    details: z.array(z.object({ reason: z.string().optional() }).loose()).optional(),
  }),
});

export function createGooglePlacesProvider(
  { baseUrl, egress, credentialRef }: ProviderSetup,
  ratingAndWebsite = false,
): MapsProvider {
  const mask = fieldMask(ratingAndWebsite);
  const identity: VendorIdentity = {
    label: "Google Places",
    whenRefused: `the deployment must set the credential "${credentialRef ?? "(none)"}" to a Google Maps Platform API key whose project has the Places API (New) enabled and whose restrictions allow it`,
  };
  const endpoint = endpointUrl(baseUrl, "/v1/places:searchText");
  return {
    name: "google",
    label: identity.label,
    endpoint,
    async search(query, { count, bias }, context) {
      const json = {
        textQuery: query,
        pageSize: count,
        ...(bias
          ? {
              locationBias: {
                circle: {
                  center: { latitude: bias.latitude, longitude: bias.longitude },
                  radius: bias.radiusMeters,
                },
              },
            }
          : {}),
      };
      const { response, body } = await sendRequest(egress, context, endpoint, {
        method: "POST",
        json,
        headers: { "x-goog-fieldmask": mask },
      });
      if (response.status >= 400) throw googleFailure(identity, response, body);
      const answer = parseAnswer(identity, response, body, SearchTextAnswer);
      return (answer.places ?? []).map(hitOf);
    },
  };
}

function hitOf(place: z.output<typeof GooglePlace>): PlaceHit {
  return {
    id: place.id,
    name: place.displayName?.text ?? place.formattedAddress ?? place.id,
    address: place.formattedAddress ?? null,
    latitude: place.location?.latitude ?? null,
    longitude: place.location?.longitude ?? null,
    types: place.types ?? [],
    rating: place.rating ?? null,
    ratingCount: place.userRatingCount ?? null,
    mapUrl: place.googleMapsUri ?? null,
    website: place.websiteUri ?? null,
  };
}

function googleFailure(identity: VendorIdentity, response: EgressResponse, body: unknown) {
  const parsed = GoogleError.safeParse(body);
  if (!parsed.success) return statusFailure(identity, response, undefined);
  const { message, status, details } = parsed.data.error;
  const detail = shortDetail(`${status}: ${message}`);
  const reasons = (details ?? []).map((entry) => entry.reason).filter(Boolean);
  if (reasons.includes("API_KEY_INVALID") || response.status === 403) {
    return credentialFailure(identity, response, detail);
  }
  if (status === "RESOURCE_EXHAUSTED") {
    // A per-minute quota and a per-day one both answer RESOURCE_EXHAUSTED; the message names which.
    // Google Maps Platform refreshes daily quotas at midnight Pacific time (the APIs' usage-and-billing
    // pages): that is the wait, not an immediate retry.
    return /per day/i.test(message)
      ? quotaFailure(identity, response, detail, untilPacificMidnight())
      : statusFailure(identity, response, detail);
  }
  return statusFailure(identity, response, detail);
}

/** Milliseconds until the next midnight in America/Los_Angeles, when Google's daily quotas refresh. */
export function untilPacificMidnight(now = Date.now()): number {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: "America/Los_Angeles",
    hourCycle: "h23",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(now));
  const part = (type: string) => Number(parts.find((entry) => entry.type === type)?.value ?? 0);
  const elapsed = (part("hour") * 3600 + part("minute") * 60 + part("second")) * 1000 + (now % 1000);
  // A day of a daylight-saving change is an hour shorter or longer: near enough for a wait to retry after.
  return Math.max(1000, 86_400_000 - elapsed);
}
