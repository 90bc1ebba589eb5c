/**
 * @module A local Open-Meteo: the forecast API and the geocoding API on one server. What it reproduces:
 * - `GET /v1/forecast` (open-meteo.com/en/docs): `latitude`, `longitude`, `daily=` variable list,
 *   `forecast_days` 0–16, `timezone`, `temperature_unit`/`wind_speed_unit`/`precipitation_unit`; the answer
 *   with `daily_units` and `daily` as parallel arrays keyed by variable, `time` first;
 * - `GET /v1/search` (open-meteo.com/en/docs/geocoding-api): `name`, `count`, `language`, `format`;
 *   `results` absent when nothing matches;
 * - errors as `{"error": true, "reason": "…"}` (the API's error object): 400 for a bad parameter, 429
 *   "Minutely API request limit exceeded. Please try again in one minute." and "Daily API request limit
 *   exceeded. Please try again tomorrow." with no Retry-After (open-meteo/open-meteo#439, #854), and the
 *   free API's "Too many concurrent requests" 429 (github.com/open-meteo/open-meteo/issues/1493, #1650) with
 *   a Retry-After, which Open-Meteo documents nowhere: one a proxy or CDN in front of it adds (RFC 9110
 *   §10.2.3, https://www.rfc-editor.org/rfc/rfc9110#section-10.2.3);
 * - a page in place of JSON, and a 200 whose `daily` arrays are not numbers.
 */
import { type FakeReply, HTML_PAGE, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";

export type OpenMeteoScenario =
  | "minutely-limit"
  | "daily-limit"
  | "hourly-limit"
  | "monthly-limit"
  | "limit-retry-after"
  | "not-json"
  | "wrong-shape";

const reason = (status: number, text: string): FakeReply => ({ status, body: { error: true, reason: text } });

const PLACES: Record<string, object> = {
  berlin: {
    id: 2950159,
    name: "Berlin",
    latitude: 52.52437,
    longitude: 13.41053,
    elevation: 74,
    feature_code: "PPLC",
    country_code: "DE",
    timezone: "Europe/Berlin",
    population: 3426354,
    country: "Germany",
    admin1: "Land Berlin",
  },
  springfield: {
    id: 4250542,
    name: "Springfield",
    latitude: 39.80172,
    longitude: -89.64371,
    elevation: 182,
    feature_code: "PPLA",
    country_code: "US",
    timezone: "America/Chicago",
    population: 116565,
    country: "United States",
    admin1: "Illinois",
  },
};

/**
 * The geocoder's "name, area" form (the tool's description recommends it): the part before the first
 * comma is the name, and what follows must name the place's first-level area or country.
 */
function lookUp(query: string): object | undefined {
  const [name = "", ...rest] = query.toLowerCase().split(",");
  const place = PLACES[name.trim()] as
    | { admin1?: string; country?: string; country_code?: string }
    | undefined;
  const area = rest.join(",").trim();
  if (place === undefined || area === "") return place;
  const areas = [place.admin1, place.country, place.country_code].map((value) => value?.toLowerCase());
  return areas.some((value) => value?.startsWith(area)) ? place : undefined;
}

function forecast(request: SeenRequest): FakeReply {
  const { latitude, longitude, daily, forecast_days: forecastDays = "7" } = request.query;
  const lat = Number(latitude);
  const lon = Number(longitude);
  if (latitude === undefined || !Number.isFinite(lat) || lat < -90 || lat > 90) {
    return reason(400, `Latitude must be in range of -90 to 90°. Given: ${latitude}`);
  }
  if (longitude === undefined || !Number.isFinite(lon) || lon < -180 || lon > 180) {
    return reason(400, `Longitude must be in range of -180 to 180°. Given: ${longitude}`);
  }
  const days = Number(forecastDays);
  if (!Number.isInteger(days) || days < 0 || days > 16) {
    return reason(400, "Forecast days is invalid. Allowed range 0 to 16.");
  }
  const variables = (daily ?? "").split(",").filter(Boolean);
  const imperial = request.query.temperature_unit === "fahrenheit";
  const dates = Array.from({ length: days }, (_, index) => `2026-12-${String(6 + index).padStart(2, "0")}`);
  const values: Record<string, (index: number) => number> = {
    weather_code: (index) => [61, 3, 0][index % 3] ?? 0,
    temperature_2m_max: (index) => (imperial ? 41 + index : 5 + index),
    temperature_2m_min: (_index) => (imperial ? 30.2 : -1),
    precipitation_sum: (index) => (index === 0 ? (imperial ? 0.1 : 2.6) : 0),
    precipitation_probability_max: (index) => (index === 0 ? 80 : 10),
    wind_speed_10m_max: () => (imperial ? 12.4 : 20),
  };
  const units: Record<string, string> = {
    time: "iso8601",
    weather_code: "wmo code",
    temperature_2m_max: imperial ? "°F" : "°C",
    temperature_2m_min: imperial ? "°F" : "°C",
    precipitation_sum: imperial ? "inch" : "mm",
    precipitation_probability_max: "%",
    wind_speed_10m_max: request.query.wind_speed_unit === "mph" ? "mp/h" : "km/h",
  };
  return {
    status: 200,
    body: {
      latitude: Math.round(lat * 100) / 100,
      longitude: Math.round(lon * 100) / 100,
      generationtime_ms: 0.1,
      utc_offset_seconds: 3600,
      timezone: request.query.timezone === "auto" ? "Europe/Berlin" : "GMT",
      timezone_abbreviation: "CET",
      elevation: 38,
      daily_units: Object.fromEntries(["time", ...variables].map((name) => [name, units[name] ?? ""])),
      daily: {
        time: dates,
        ...Object.fromEntries(
          variables.map((name) => [name, dates.map((_, index) => values[name]?.(index) ?? null)]),
        ),
      },
    },
  };
}

function answer(request: SeenRequest, scenario: OpenMeteoScenario | undefined): FakeReply {
  switch (scenario) {
    case "minutely-limit":
      return reason(429, "Minutely API request limit exceeded. Please try again in one minute.");
    // The free API's hourly and monthly limits answer the same way (open-meteo/open-meteo#854).
    case "hourly-limit":
      return reason(429, "Hourly API request limit exceeded. Please try again in the next hour.");
    case "monthly-limit":
      return reason(429, "Monthly API request limit exceeded. Please try again in the next month.");
    case "daily-limit":
      return reason(429, "Daily API request limit exceeded. Please try again tomorrow.");
    case "limit-retry-after":
      return { ...reason(429, "Too many concurrent requests"), headers: { "retry-after": "5" } };
    case "not-json":
      return HTML_PAGE;
    case "wrong-shape":
      return {
        status: 200,
        body: {
          latitude: 52.52,
          longitude: 13.41,
          daily_units: {},
          daily: { time: ["2026-12-06"], weather_code: ["rain"] },
        },
      };
  }
  if (request.path === "/v1/forecast") return forecast(request);
  if (request.path === "/v1/search") {
    const found = lookUp(request.query.name ?? "");
    return {
      status: 200,
      body: found ? { results: [found], generationtime_ms: 0.5 } : { generationtime_ms: 0.5 },
    };
  }
  return reason(404, "Not Found");
}

export function startOpenMeteoFake(): Promise<VendorFake<OpenMeteoScenario>> {
  return startVendorFake(answer);
}
