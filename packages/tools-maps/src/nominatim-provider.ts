/**
 * @module The OpenStreetMap Nominatim adapter, keyless: `GET /search?q=&format=json&limit=` (nominatim.org
 * /release-docs/latest/api/Search; `limit` at most 40), a location bias sent as a `viewbox` around the
 * point with `bounded=0` so it favours rather than filters. Its answer is an array of places with `lat`
 * and `lon` as strings, `class` and `type`, `display_name`, and `extratags.website` when asked for.
 * The public instance's usage policy (operations.osmfoundation.org/policies/nominatim) requires an
 * identifying User-Agent and at most one request per second: the deployment names its application in
 * `userAgent`, and requests are paced here, one at a time, `minIntervalMs` apart. Refusals: 403 for a
 * blocked or missing identification, 429 for too many requests; a bad parameter answers 400 with
 * `{"error": {"code": 400, "message": "…"}}`.
 */
import {
  type EgressResponse,
  endpointUrl,
  parseAnswer,
  sendRequest,
  shortDetail,
  statusFailure,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { LocationBias, MapsProvider, PlaceHit, ProviderSetup } from "./maps-provider.js";

export const NOMINATIM_BASE_URL = "https://nominatim.openstreetmap.org";
/** The public instance's absolute maximum: one request per second. */
export const NOMINATIM_MIN_INTERVAL_MS = 1000;

const coordinate = z.string().regex(/^-?\d+(\.\d+)?$/);
const NominatimPlace = z.object({
  place_id: z.number().int(),
  osm_type: z.string().optional(),
  osm_id: z.number().int().optional(),
  lat: coordinate,
  lon: coordinate,
  name: z.string().optional(),
  display_name: z.string(),
  class: z.string().optional(),
  type: z.string().optional(),
  extratags: z.record(z.string(), z.string()).nullish(),
});
const SearchAnswer = z.array(NominatimPlace);
const NominatimError = z.object({ error: z.object({ message: z.string() }).or(z.string()) });

/** Meters per degree of latitude, near enough for a viewbox that only biases the ranking. */
const METERS_PER_DEGREE = 111_320;

/** Nominatim's setup: its usage policy makes the identifying User-Agent a requirement, so the type does too. */
export type NominatimSetup = ProviderSetup & { userAgent: string };

export function createNominatimProvider(
  { baseUrl, egress, userAgent }: NominatimSetup,
  minIntervalMs = NOMINATIM_MIN_INTERVAL_MS,
): MapsProvider {
  const identity: VendorIdentity = {
    label: "OpenStreetMap Nominatim",
    whenRefused: `the Nominatim instance at ${baseUrl} refused this deployment's requests: its usage policy needs an identifying userAgent naming the application and a contact, and at most one request per second`,
  };
  const endpoint = endpointUrl(baseUrl, "/search");
  /** Settles when every earlier call of this provider has sent and been answered, or given up. */
  let queue: Promise<void> = Promise.resolve();
  let lastSent = 0;

  /**
   * Runs `send` after every earlier request of this provider, and `minIntervalMs` after the last one
   * sent. A call whose deadline passes while it waits leaves at once and takes no slot: it never touches
   * `lastSent`, so a dead call cannot delay the live ones behind it.
   */
  async function paced<T>(send: () => Promise<T>, context: ToolContext): Promise<T> {
    const earlier = queue;
    let done!: () => void;
    const mine = new Promise<void>((resolve) => {
      done = resolve;
    });
    queue = earlier.then(() => mine);
    try {
      await untilSettled(earlier, context.signal);
      const wait = lastSent + minIntervalMs - Date.now();
      if (wait > 0) await sleep(wait, context.signal);
      lastSent = Date.now();
      return await send();
    } finally {
      done();
    }
  }

  return {
    name: "nominatim",
    label: identity.label,
    endpoint,
    async search(query, { count, bias }, context) {
      const url = new URL(endpoint);
      url.searchParams.set("q", query);
      url.searchParams.set("format", "json");
      url.searchParams.set("limit", String(count));
      url.searchParams.set("extratags", "1");
      if (bias) {
        url.searchParams.set("viewbox", viewbox(bias));
        url.searchParams.set("bounded", "0");
      }
      const { response, body } = await paced(
        () => sendRequest(egress, context, url.href, { headers: { "user-agent": userAgent } }),
        context,
      );
      if (response.status >= 400) throw nominatimFailure(identity, response, body);
      return parseAnswer(identity, response, body, SearchAnswer).map(hitOf);
    },
  };
}

/** A box of `radiusMeters` around the point: Nominatim's `viewbox=<x1>,<y1>,<x2>,<y2>` (lon,lat pairs). */
function viewbox({ latitude, longitude, radiusMeters }: LocationBias): string {
  const dLat = radiusMeters / METERS_PER_DEGREE;
  const dLon = radiusMeters / (METERS_PER_DEGREE * Math.max(Math.cos((latitude * Math.PI) / 180), 0.01));
  const clamp = (value: number, limit: number) => Math.max(-limit, Math.min(limit, value));
  const fixed = (value: number) => Number(value.toFixed(6));
  return [
    fixed(clamp(longitude - dLon, 180)),
    fixed(clamp(latitude + dLat, 90)),
    fixed(clamp(longitude + dLon, 180)),
    fixed(clamp(latitude - dLat, 90)),
  ].join(",");
}

function hitOf(place: z.output<typeof NominatimPlace>): PlaceHit {
  const osm = place.osm_type && place.osm_id !== undefined ? `${place.osm_type}/${place.osm_id}` : undefined;
  return {
    id: osm ?? String(place.place_id),
    name: place.name || place.display_name.split(",")[0] || place.display_name,
    address: place.display_name,
    latitude: Number(place.lat),
    longitude: Number(place.lon),
    types: [place.class, place.type].filter((value): value is string => Boolean(value)),
    rating: null,
    ratingCount: null,
    mapUrl: osm ? `https://www.openstreetmap.org/${osm}` : null,
    website: place.extratags?.website ?? null,
  };
}

function nominatimFailure(identity: VendorIdentity, response: EgressResponse, body: unknown): ToolFailure {
  const parsed = NominatimError.safeParse(body);
  const message = parsed.success
    ? typeof parsed.data.error === "string"
      ? parsed.data.error
      : parsed.data.error.message
    : undefined;
  return statusFailure(identity, response, message ? shortDetail(message) : undefined);
}

function gaveUp(): ToolFailure {
  return new ToolFailure(
    "timeout",
    "the call ended while waiting its turn under Nominatim's one-request-a-second policy",
  );
}

/** Waits for `earlier`, or rejects as soon as the call is aborted. */
function untilSettled(earlier: Promise<void>, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(gaveUp());
    const abort = () => reject(gaveUp());
    signal.addEventListener("abort", abort, { once: true });
    void earlier.then(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    });
  });
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(gaveUp());
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = () => {
      clearTimeout(timer);
      reject(gaveUp());
    };
    signal.addEventListener("abort", abort, { once: true });
  });
}
