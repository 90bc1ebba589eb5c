/**
 * @module `weather_forecast`: a daily forecast for coordinates, or for a place name the provider's geocoder
 * resolves first (the place it chose is returned, so a wrong "Paris" shows). Forecast text and place names
 * are the vendor's: returned as untrusted.
 */
import { hasHiddenCharacters, oneLine, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { MAX_DAYS } from "./weather-config.js";
import { weatherTool } from "./weather-env.js";
import { type Forecast, type Place, UNITS } from "./weather-provider.js";

const nullableNumber = z.number().nullable();
/** Days forecast when the model names none: today and the next two. */
const DEFAULT_DAYS = 3;

export const weatherForecast = weatherTool({
  name: "weather_forecast",
  description:
    "Gets the daily weather forecast for a place: for each day the weather in words, high and low temperature, precipitation and its probability, and the strongest wind. Give either latitude and longitude, or a place name (a city or town, optionally with its region or country, e.g. 'Springfield, Illinois'); the place found is returned so you can check it is the one meant. Units are metric (°C, km/h, mm) or imperial (°F, mph, inch).",
  category: "general",
  effect: "read",
  approval: "never",
  cost: "io",
  input: z
    .strictObject({
      latitude: z.number().min(-90).max(90).optional().describe("latitude in degrees, -90 to 90"),
      longitude: z.number().min(-180).max(180).optional().describe("longitude in degrees, -180 to 180"),
      place: z
        .string()
        .min(1)
        .max(100)
        .refine((text) => text.trim().length > 0, "the place name is blank")
        .refine(
          (text) => !hasHiddenCharacters(text),
          "control and invisible characters are not allowed in a place name",
        )
        .optional()
        .describe("a place name, instead of coordinates (at most 100 characters)"),
      days: z
        .int()
        .min(1)
        .max(MAX_DAYS)
        .optional()
        .describe(
          `how many days, from today (default ${DEFAULT_DAYS}, or fewer where the deployment allows fewer; at most its maxDays, 7 unless configured)`,
        ),
      units: z.enum(UNITS).default("metric").describe("metric (°C, km/h, mm) or imperial (°F, mph, inch)"),
    })
    .superRefine((input, issues) => {
      const coordinates = input.latitude !== undefined || input.longitude !== undefined;
      if (input.place !== undefined && coordinates) {
        issues.addIssue({
          code: "custom",
          path: ["place"],
          message: "give a place name or coordinates, not both",
        });
      } else if (
        input.place === undefined &&
        (input.latitude === undefined || input.longitude === undefined)
      ) {
        issues.addIssue({
          code: "custom",
          path: ["latitude"],
          message: "give both latitude and longitude, or a place name",
        });
      }
    }),
  output: z.object({
    provider: z.string(),
    place: z
      .object({
        name: z.string(),
        latitude: z.number(),
        longitude: z.number(),
        country: z.string().nullable(),
        region: z.string().nullable(),
      })
      .nullable(),
    latitude: z.number(),
    longitude: z.number(),
    timezone: z.string().nullable(),
    units: z.object({ temperature: z.string(), precipitation: z.string(), windSpeed: z.string() }),
    days: z.array(
      z.object({
        date: z.string(),
        summary: z.string().nullable(),
        temperatureMax: nullableNumber,
        temperatureMin: nullableNumber,
        precipitation: nullableNumber,
        precipitationProbability: nullableNumber,
        windSpeedMax: nullableNumber,
      }),
    ),
  }),
  async run({ latitude, longitude, place, days: asked, units }, context, { provider, maxDays }) {
    const days = asked ?? Math.min(DEFAULT_DAYS, maxDays);
    if (days > maxDays) {
      throw new ToolFailure(
        "invalid_input",
        `this deployment forecasts at most ${maxDays} days and ${days} were asked for; ask for ${maxDays} or fewer`,
      );
    }
    let found: Place | null = null;
    if (place !== undefined) {
      found = (await provider.geocode(place.trim(), context)) ?? null;
      if (found === null) {
        throw new ToolFailure(
          "invalid_input",
          `${provider.label} found no place named "${place.trim()}"; try the town's name alone, another spelling, or coordinates`,
        );
      }
    }
    const at = found ?? { latitude: latitude as number, longitude: longitude as number };
    const forecast = await provider.forecast(at, days, units, context);
    return {
      content: renderForecast(provider.label, found, forecast),
      data: { provider: provider.name, place: found, ...forecast },
      provenance: { source: provider.endpoint, trusted: false },
    };
  },
});

function renderForecast(label: string, place: Place | null, forecast: Forecast): string {
  const where = place
    ? `${[place.name, place.region, place.country]
        .flatMap((part) => (part ? [oneLine(part, 100)] : []))
        .join(", ")} (${place.latitude}, ${place.longitude})`
    : `${forecast.latitude}, ${forecast.longitude}`;
  const { temperature, precipitation, windSpeed } = forecast.units;
  const lines = forecast.days.map((day) => {
    const parts = [
      day.summary === null ? null : oneLine(day.summary, 120),
      day.temperatureMax === null ? null : `high ${day.temperatureMax}${temperature}`,
      day.temperatureMin === null ? null : `low ${day.temperatureMin}${temperature}`,
      day.precipitation === null ? null : `precipitation ${day.precipitation} ${precipitation}`,
      day.precipitationProbability === null ? null : `${day.precipitationProbability}% chance`,
      day.windSpeedMax === null ? null : `wind up to ${day.windSpeedMax} ${windSpeed}`,
    ].filter(Boolean);
    return `${day.date}: ${parts.join(", ")}`;
  });
  return [
    `${label} forecast for ${where}${forecast.timezone ? `, ${forecast.timezone}` : ""}:`,
    ...lines,
  ].join("\n");
}
