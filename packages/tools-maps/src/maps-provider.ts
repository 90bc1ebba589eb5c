/**
 * @module The maps provider port: `place_search` talks to this interface only. Each adapter sends a text
 * search with an optional location bias and maps its vendor's places into the shape here.
 */
import type { EgressClient, ToolContext } from "toolreg/toolkit";

export const PROVIDER_NAMES = ["google", "nominatim"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export interface LocationBias {
  latitude: number;
  longitude: number;
  /** Meters around the point that results should favour. */
  radiusMeters: number;
}

export interface PlaceHit {
  /** The vendor's id for the place (a Google place id; `node/123` for OpenStreetMap). */
  id: string;
  name: string;
  address: string | null;
  latitude: number | null;
  longitude: number | null;
  /** The vendor's categories: Google's place types, OpenStreetMap's class and type. */
  types: string[];
  rating: number | null;
  ratingCount: number | null;
  /** A page about the place: Google Maps, or openstreetmap.org. */
  mapUrl: string | null;
  website: string | null;
}

export interface MapsProvider {
  readonly name: ProviderName;
  readonly label: string;
  /** The search endpoint: the source named on the untrusted results. */
  readonly endpoint: string;
  search(
    query: string,
    options: { count: number; bias?: LocationBias | undefined },
    context: ToolContext,
  ): Promise<PlaceHit[]>;
}

export interface ProviderSetup {
  baseUrl: string;
  egress: EgressClient;
  credentialRef?: string | undefined;
}
