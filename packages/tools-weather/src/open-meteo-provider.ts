/**
 * @module The Open-Meteo adapter, keyless: forecasts from `GET api.open-meteo.com/v1/forecast` with
 * `daily=` variables, `forecast_days`, `timezone=auto` and the unit parameters (open-meteo.com/en/docs);
 * place names from `GET geocoding-api.open-meteo.com/v1/search?name=&count=1` (open-meteo.com/en/docs/
 * geocoding-api), whose answer has no `results` at all when nothing matched. A bad parameter answers 400
 * `{"error": true, "reason": "…"}`; the free API's limits answer 429 with the same body ("Minutely API
 * request limit exceeded. Please try again in one minute.", "Daily API request limit exceeded. Please try
 * again tomorrow.", open-meteo/open-meteo#439 and #854) and no Retry-After.
 */
import {
  type EgressResponse,
  endpointUrl,
  parseAnswer,
  retryAfterMs,
  sendRequest,
  shortDetail,
  statusFailure,
  ToolFailure,
  upstreamRateLimited,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import type { Forecast, ProviderSetup, Units, WeatherProvider } from "./weather-provider.js";
import { wmoSummary } from "./wmo-codes.js";

export const OPEN_METEO_BASE_URL = "https://api.open-meteo.com";
export const OPEN_METEO_GEOCODING_URL = "https://geocoding-api.open-meteo.com";
/** Its `forecast_days` reaches 16. */
export const OPEN_METEO_MAX_DAYS = 16;

const DAILY = [
  "weather_code",
  "temperature_2m_max",
  "temperature_2m_min",
  "precipitation_sum",
  "precipitation_probability_max",
  "wind_speed_10m_max",
] as const;

const series = z.array(z.number().nullable());
const ForecastAnswer = z.object({
  latitude: z.number(),
  longitude: z.number(),
  timezone: z.string().nullish(),
  daily_units: z.record(z.string(), z.string()),
  daily: z.object({
    time: z.array(z.string()),
    weather_code: series,
    temperature_2m_max: series,
    temperature_2m_min: series,
    precipitation_sum: series,
    precipitation_probability_max: series,
    wind_speed_10m_max: series,
  }),
});
const GeocodingAnswer = z.object({
  results: z
    .array(
      z.object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().nullish(),
        admin1: z.string().nullish(),
      }),
    )
    .optional(),
});
const ErrorBody = z.object({ error: z.literal(true), reason: z.string() });

const IMPERIAL = { temperature_unit: "fahrenheit", wind_speed_unit: "mph", precipitation_unit: "inch" };

export function createOpenMeteoProvider({
  baseUrl,
  geocodingBaseUrl,
  egress,
}: ProviderSetup): WeatherProvider {
  const identity: VendorIdentity = {
    label: "Open-Meteo",
    whenRefused:
      "Open-Meteo's free API takes no key, so something between toolreg and it is refusing the request; check the deployment's egress or proxy",
  };
  const endpoint = endpointUrl(baseUrl, "/v1/forecast");
  const failure = (response: EgressResponse, body: unknown) => {
    const parsed = ErrorBody.safeParse(body);
    const reason = parsed.success ? shortDetail(parsed.data.reason) : undefined;
    if (response.status === 429) return limitFailure(response, reason);
    return statusFailure(identity, response, reason);
  };
  return {
    name: "open-meteo",
    label: identity.label,
    endpoint,
    maxDays: OPEN_METEO_MAX_DAYS,
    async geocode(name, context) {
      const url = new URL(endpointUrl(geocodingBaseUrl, "/v1/search"));
      url.searchParams.set("name", name);
      url.searchParams.set("count", "1");
      url.searchParams.set("language", "en");
      url.searchParams.set("format", "json");
      const { response, body } = await sendRequest(egress, context, url.href);
      if (response.status >= 400) throw failure(response, body);
      const first = parseAnswer(identity, response, body, GeocodingAnswer).results?.[0];
      if (first === undefined) return undefined;
      return {
        name: first.name,
        latitude: first.latitude,
        longitude: first.longitude,
        country: first.country ?? null,
        region: first.admin1 ?? null,
      };
    },
    async forecast({ latitude, longitude }, days, units: Units, context): Promise<Forecast> {
      const url = new URL(endpoint);
      url.searchParams.set("latitude", String(latitude));
      url.searchParams.set("longitude", String(longitude));
      url.searchParams.set("daily", DAILY.join(","));
      url.searchParams.set("forecast_days", String(days));
      url.searchParams.set("timezone", "auto");
      if (units === "imperial") {
        for (const [key, value] of Object.entries(IMPERIAL)) url.searchParams.set(key, value);
      }
      const { response, body } = await sendRequest(egress, context, url.href);
      if (response.status >= 400) throw failure(response, body);
      const answer = parseAnswer(identity, response, body, ForecastAnswer);
      const { daily } = answer;
      const at = (values: readonly (number | null)[], index: number) => values[index] ?? null;
      return {
        latitude: answer.latitude,
        longitude: answer.longitude,
        timezone: answer.timezone ?? null,
        units: {
          temperature: answer.daily_units.temperature_2m_max ?? (units === "metric" ? "°C" : "°F"),
          precipitation: answer.daily_units.precipitation_sum ?? (units === "metric" ? "mm" : "inch"),
          windSpeed: answer.daily_units.wind_speed_10m_max ?? (units === "metric" ? "km/h" : "mp/h"),
        },
        days: daily.time.slice(0, days).map((date, index) => {
          const code = at(daily.weather_code, index);
          return {
            date,
            summary: code === null ? null : wmoSummary(code),
            temperatureMax: at(daily.temperature_2m_max, index),
            temperatureMin: at(daily.temperature_2m_min, index),
            precipitation: at(daily.precipitation_sum, index),
            precipitationProbability: at(daily.precipitation_probability_max, index),
            windSpeedMax: at(daily.wind_speed_10m_max, index),
          };
        }),
      };
    },
  };
}

/**
 * Open-Meteo's free API limits per minute, hour, day and month, and names the one reached in its reason
 * ("Hourly API request limit exceeded. Please try again in the next hour."). Each lifts at the start of
 * the next period: the minute in a minute, the hour at the next full hour, the day at 00:00 UTC. A
 * month is too long to wait for: final. A Retry-After, when a proxy adds one, wins.
 */
export function limitFailure(response: EgressResponse, reason: string | undefined, now = Date.now()) {
  const said = reason ? ` (it said: ${reason})` : "";
  const period = /\b(minutely|hourly|daily|monthly)\b/i.exec(reason ?? "")?.[1]?.toLowerCase();
  if (period === "monthly") {
    return new ToolFailure(
      "upstream_rate_limited",
      `Open-Meteo's free API monthly limit is reached${said}; retrying will not help this month: the deployment needs an Open-Meteo plan or another provider`,
      { retryable: false, details: { status: 429, limit: "quota", period } },
    );
  }
  const hour = 3_600_000;
  const day = 24 * hour;
  const untilPeriodEnds =
    period === "minutely"
      ? 60_000
      : period === "hourly"
        ? hour - (now % hour)
        : period === "daily"
          ? day - (now % day)
          : undefined;
  const when = period === "daily" ? "; the daily limit resets at midnight UTC" : "";
  return upstreamRateLimited(`Open-Meteo's free API limit is reached${said}${when}`, {
    retryAfterMs: retryAfterMs(response.headers["retry-after"]) ?? untilPeriodEnds,
    details: { status: 429, limit: period === "daily" ? "quota" : "rate", ...(period ? { period } : {}) },
  });
}
