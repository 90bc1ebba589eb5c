/**
 * @module The OpenWeather adapter: the free 5 day / 3 hour forecast, `GET api.openweathermap.org/data/2.5/
 * forecast?lat=&lon=&units=&cnt=` (openweathermap.org/forecast5), read into days: the steps of one local
 * date (`dt` shifted by `city.timezone`, seconds from UTC) give its high, low, summed rain and snow
 * (`rain.3h`, `snow.3h`, mm whatever the units), highest `pop` and strongest wind (`wind.speed`, m/s in
 * metric, mph in imperial), and the words of the step nearest local noon. Five days at most, the last one
 * often partial. Place names from the Geocoding API, `GET /geo/1.0/direct?q=&limit=1`
 * (openweathermap.org/api/geocoding-api), an empty array when nothing matched. The key goes in `appid`,
 * placed by egress, never here. Failures are `{"cod": …, "message": "…"}` (cod a number or a string):
 * 401 "Invalid API key. …" (openweathermap.org/faq#error401), 429 "Your account is temporary blocked due to
 * exceeding of requests limitation of your subscription type. …" (faq#error429), 404 "city not found",
 * 400 for a bad parameter ("wrong latitude").
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
import type { Forecast, ForecastDay, ProviderSetup, Units, WeatherProvider } from "./weather-provider.js";

export const OPENWEATHER_BASE_URL = "https://api.openweathermap.org";
/** The free forecast's reach: 40 steps of three hours. */
export const OPENWEATHER_MAX_DAYS = 5;
const STEPS_PER_DAY = 8;

const Step = z.object({
  dt: z.number(),
  main: z.object({ temp_min: z.number(), temp_max: z.number() }),
  weather: z.array(z.object({ description: z.string() })),
  wind: z.object({ speed: z.number() }).optional(),
  pop: z.number().optional(),
  rain: z.object({ "3h": z.number() }).partial().optional(),
  snow: z.object({ "3h": z.number() }).partial().optional(),
});
const ForecastAnswer = z.object({
  list: z.array(Step),
  city: z.object({
    coord: z.object({ lat: z.number(), lon: z.number() }).optional(),
    timezone: z.number(),
  }),
});
const GeocodingAnswer = z.array(
  z.object({
    name: z.string(),
    lat: z.number(),
    lon: z.number(),
    country: z.string().nullish(),
    state: z.string().nullish(),
  }),
);
const ErrorBody = z.object({ cod: z.union([z.number(), z.string()]), message: z.string() });

type Step = z.infer<typeof Step>;

export function createOpenWeatherProvider({
  baseUrl,
  geocodingBaseUrl,
  egress,
}: ProviderSetup): WeatherProvider {
  const identity: VendorIdentity = {
    label: "OpenWeather",
    whenRefused:
      "check the key the deployment's credentialRef names (a new OpenWeather key can take a few hours to activate)",
  };
  const endpoint = endpointUrl(baseUrl, "/data/2.5/forecast");
  const failure = (response: EgressResponse, body: unknown) => {
    const parsed = ErrorBody.safeParse(body);
    const message = parsed.success ? shortDetail(parsed.data.message) : undefined;
    if (response.status === 429) {
      return upstreamRateLimited(
        `OpenWeather has blocked this deployment's key for going over its plan's call limits${message ? ` (it said: ${message})` : ""}; the block lifts after a while, or the deployment can raise its plan`,
        {
          retryAfterMs: retryAfterMs(response.headers["retry-after"]),
          details: { status: 429, limit: "rate" },
        },
      );
    }
    if (response.status === 404) {
      return new ToolFailure(
        "invalid_input",
        `OpenWeather has no forecast for that place${message ? ` (it said: ${message})` : ""}; try coordinates or another spelling`,
        { retryable: false, details: { status: 404 } },
      );
    }
    return statusFailure(identity, response, message);
  };
  return {
    name: "openweather",
    label: identity.label,
    endpoint,
    maxDays: OPENWEATHER_MAX_DAYS,
    async geocode(name, context) {
      const url = new URL(endpointUrl(geocodingBaseUrl, "/geo/1.0/direct"));
      url.searchParams.set("q", name);
      url.searchParams.set("limit", "1");
      const { response, body } = await sendRequest(egress, context, url.href);
      if (response.status >= 400) throw failure(response, body);
      const first = parseAnswer(identity, response, body, GeocodingAnswer)[0];
      if (first === undefined) return undefined;
      return {
        name: first.name,
        latitude: first.lat,
        longitude: first.lon,
        country: first.country ?? null,
        region: first.state ?? null,
      };
    },
    async forecast({ latitude, longitude }, days, units: Units, context): Promise<Forecast> {
      const url = new URL(endpoint);
      url.searchParams.set("lat", String(latitude));
      url.searchParams.set("lon", String(longitude));
      url.searchParams.set("units", units);
      // Enough steps for the days asked: a partial first day only needs fewer.
      url.searchParams.set("cnt", String(Math.min(OPENWEATHER_MAX_DAYS, days) * STEPS_PER_DAY));
      const { response, body } = await sendRequest(egress, context, url.href);
      if (response.status >= 400) throw failure(response, body);
      const answer = parseAnswer(identity, response, body, ForecastAnswer);
      const offset = answer.city.timezone;
      const byDate = new Map<string, Step[]>();
      for (const step of answer.list) {
        const date = new Date((step.dt + offset) * 1000).toISOString().slice(0, 10);
        byDate.set(date, [...(byDate.get(date) ?? []), step]);
      }
      return {
        latitude: answer.city.coord?.lat ?? latitude,
        longitude: answer.city.coord?.lon ?? longitude,
        timezone: utcOffset(offset),
        units:
          units === "metric"
            ? { temperature: "°C", precipitation: "mm", windSpeed: "km/h" }
            : { temperature: "°F", precipitation: "inch", windSpeed: "mph" },
        days: [...byDate].slice(0, days).map(([date, steps]) => forecastDay(date, steps, offset, units)),
      };
    },
  };
}

function forecastDay(date: string, steps: readonly Step[], offset: number, units: Units): ForecastDay {
  const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;
  const winds = steps.flatMap((step) => (step.wind ? [step.wind.speed] : []));
  const pops = steps.flatMap((step) => (step.pop === undefined ? [] : [step.pop]));
  // rain.3h and snow.3h are millimetres in every unit system.
  const millimetres = steps.reduce(
    (sum, step) => sum + (step.rain?.["3h"] ?? 0) + (step.snow?.["3h"] ?? 0),
    0,
  );
  const noon = steps.reduce((best, step) =>
    Math.abs(hourOf(step.dt, offset) - 12) < Math.abs(hourOf(best.dt, offset) - 12) ? step : best,
  );
  const wind = winds.length === 0 ? null : Math.max(...winds);
  return {
    date,
    summary: noon.weather[0]?.description ?? null,
    temperatureMax: round(Math.max(...steps.map((step) => step.main.temp_max)), 1),
    temperatureMin: round(Math.min(...steps.map((step) => step.main.temp_min)), 1),
    precipitation: units === "metric" ? round(millimetres, 1) : round(millimetres / 25.4, 2),
    precipitationProbability: pops.length === 0 ? null : Math.round(Math.max(...pops) * 100),
    // Metric wind is metres a second; the tool speaks km/h.
    windSpeedMax: wind === null ? null : round(units === "metric" ? wind * 3.6 : wind, 1),
  };
}

function hourOf(dt: number, offset: number): number {
  return new Date((dt + offset) * 1000).getUTCHours();
}

/** `UTC+05:30` from a shift in seconds: OpenWeather gives no zone name. */
function utcOffset(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const minutes = Math.abs(Math.round(seconds / 60));
  return `UTC${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}
