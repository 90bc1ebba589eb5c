/**
 * @module The weather provider port: `weather_forecast` talks to this interface only. Each adapter finds a
 * place's coordinates by name and reads a daily forecast for coordinates, in our field names and units.
 */
import type { EgressClient, ToolContext } from "toolreg/toolkit";

export const PROVIDER_NAMES = ["open-meteo", "openweather"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

export const UNITS = ["metric", "imperial"] as const;
/** metric: °C, km/h, mm; imperial: °F, mph, inches. */
export type Units = (typeof UNITS)[number];

export interface Place {
  name: string;
  latitude: number;
  longitude: number;
  country: string | null;
  /** The first-level region (a state, a province), when the vendor names one. */
  region: string | null;
}

export interface ForecastDay {
  /** The local date, YYYY-MM-DD. */
  date: string;
  /** What the weather is, in words (the WMO code's meaning). */
  summary: string | null;
  temperatureMax: number | null;
  temperatureMin: number | null;
  precipitation: number | null;
  precipitationProbability: number | null;
  windSpeedMax: number | null;
}

export interface Forecast {
  latitude: number;
  longitude: number;
  timezone: string | null;
  units: { temperature: string; precipitation: string; windSpeed: string };
  days: ForecastDay[];
}

export interface WeatherProvider {
  readonly name: ProviderName;
  readonly label: string;
  /** The forecast endpoint: the source named on the untrusted results. */
  readonly endpoint: string;
  /** The most days its forecast reaches: a deployment's maxDays is cut to it. */
  readonly maxDays: number;
  /** The best match for a place name, or undefined when the vendor finds none. */
  geocode(name: string, context: ToolContext): Promise<Place | undefined>;
  forecast(
    at: { latitude: number; longitude: number },
    days: number,
    units: Units,
    context: ToolContext,
  ): Promise<Forecast>;
}

export interface ProviderSetup {
  /** The forecast API's root. */
  baseUrl: string;
  /** The geocoding API's root. */
  geocodingBaseUrl: string;
  egress: EgressClient;
}
