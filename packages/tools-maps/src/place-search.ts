/**
 * @module `place_search`: places matching a text query ("coffee near Alexanderplatz", "Louvre", an
 * address), optionally favouring those around a point. Names, addresses and websites are written by
 * businesses and map editors: returned as untrusted.
 */
import { hasHiddenCharacters, oneLine } from "toolreg/toolkit";
import { z } from "zod";
import { MAX_RESULTS } from "./maps-config.js";
import { mapsTool } from "./maps-env.js";
import type { PlaceHit } from "./maps-provider.js";

/** Google's location bias circle takes a radius up to 50 km. */
export const MAX_RADIUS_METERS = 50_000;

export const placeSearch = mapsTool({
  name: "place_search",
  description:
    "Finds places by a text query — a business or kind of place with an area ('pizza in Trastevere'), a landmark, or an address — and returns each with its name, address, coordinates, categories, a map link, and its rating and website where the provider and the deployment give them. Optionally favour places around a point (latitude, longitude, radius in meters). Names, addresses and websites are third-party text.",
  category: "general",
  effect: "read",
  approval: "never",
  cost: "io",
  input: z
    .strictObject({
      query: z
        .string()
        .min(1)
        .max(300)
        .refine((query) => query.trim().length > 0, "the query is blank")
        .refine(
          (query) => !hasHiddenCharacters(query),
          "control and invisible characters are not allowed in a query",
        )
        .describe("what to find, as you would type it into a map's search box (at most 300 characters)"),
      latitude: z.number().min(-90).max(90).optional().describe("favour places near this latitude"),
      longitude: z.number().min(-180).max(180).optional().describe("favour places near this longitude"),
      radiusMeters: z
        .number()
        .min(1)
        .max(MAX_RADIUS_METERS)
        .optional()
        .describe("how far around the point to favour, in meters (default 5000, at most 50000)"),
      maxResults: z
        .int()
        .min(1)
        .max(MAX_RESULTS)
        .optional()
        .describe("how many places to return (the deployment's maxResults by default, and at most that)"),
    })
    .superRefine((input, issues) => {
      const given = [input.latitude, input.longitude].filter((value) => value !== undefined).length;
      if (given === 1) {
        issues.addIssue({
          code: "custom",
          path: ["latitude"],
          message: "give both latitude and longitude, or neither",
        });
      }
      if (given === 0 && input.radiusMeters !== undefined) {
        issues.addIssue({
          code: "custom",
          path: ["radiusMeters"],
          message: "a radius needs a latitude and longitude",
        });
      }
    }),
  output: z.object({
    provider: z.string(),
    query: z.string(),
    places: z.array(
      z.object({
        position: z.int().min(1),
        id: z.string(),
        name: z.string(),
        address: z.string().nullable(),
        latitude: z.number().nullable(),
        longitude: z.number().nullable(),
        types: z.array(z.string()),
        rating: z.number().nullable(),
        ratingCount: z.number().nullable(),
        mapUrl: z.string().nullable(),
        website: z.string().nullable(),
      }),
    ),
  }),
  async run({ query, latitude, longitude, radiusMeters, maxResults }, context, env) {
    const count = Math.min(maxResults ?? env.maxResults, env.maxResults);
    const bias =
      latitude !== undefined && longitude !== undefined
        ? { latitude, longitude, radiusMeters: radiusMeters ?? 5000 }
        : undefined;
    const hits = await env.provider.search(query.trim(), { count, bias }, context);
    const places = hits.slice(0, count).map((hit, index) => ({ position: index + 1, ...clean(hit) }));
    const capped = maxResults !== undefined && maxResults > env.maxResults;
    return {
      content: renderPlaces(env.provider.label, query.trim(), places, capped ? env.maxResults : undefined),
      data: { provider: env.provider.name, query: query.trim(), places },
      provenance: { source: env.provider.endpoint, trusted: false },
    };
  },
});

/** Text on one line and cut to a bound; links kept only when they are http(s). */
function clean(hit: PlaceHit): PlaceHit {
  const line = (text: string | null, limit: number) => (text === null ? null : oneLine(text, limit));
  const link = (text: string | null) =>
    text !== null && text.length <= 2048 && /^https?:\/\//i.test(text) && URL.canParse(text) ? text : null;
  return {
    ...hit,
    name: line(hit.name, 200) ?? "",
    address: line(hit.address, 400),
    types: hit.types.slice(0, 10).map((type) => line(type, 60) ?? ""),
    mapUrl: link(hit.mapUrl),
    website: link(hit.website),
  };
}

function renderPlaces(
  label: string,
  query: string,
  places: readonly (PlaceHit & { position: number })[],
  cappedAt: number | undefined,
): string {
  const cap = cappedAt === undefined ? "" : `; this deployment returns at most ${cappedAt}`;
  if (places.length === 0) return `${label} found no places for "${query}"${cap}.`;
  const entries = places.map((place) =>
    [
      `${place.position}. ${place.name}`,
      ...(place.address ? [`   ${place.address}`] : []),
      ...(place.latitude !== null && place.longitude !== null
        ? [`   at ${place.latitude}, ${place.longitude}`]
        : []),
      ...(place.rating !== null
        ? [`   rating ${place.rating}${place.ratingCount !== null ? ` (${place.ratingCount})` : ""}`]
        : []),
      ...(place.types.length > 0 ? [`   ${place.types.join(", ")}`] : []),
      ...(place.website ? [`   ${place.website}`] : []),
      ...(place.mapUrl ? [`   map: ${place.mapUrl}`] : []),
    ].join("\n"),
  );
  return [
    `${label}: ${places.length} place${places.length === 1 ? "" : "s"} for "${query}"${cap}.`,
    ...entries,
  ].join("\n\n");
}
