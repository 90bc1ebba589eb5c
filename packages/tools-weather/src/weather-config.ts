/**
 * @module The weather toolkit's configuration: which provider answers, where (a proxy, or a fake in tests)
 * and how many days one forecast may cover. Open-Meteo takes no key, so there is no credential to name.
 */
import { z } from "zod";
import { PROVIDER_NAMES } from "./weather-provider.js";

export const DEFAULT_MAX_DAYS = 7;
/** Open-Meteo forecasts up to 16 days ahead (its `forecast_days` parameter). */
export const MAX_DAYS = 16;

const rootUrl = z.url({ protocol: /^https?$/ }).refine((value) => {
  const url = new URL(value);
  return url.username === "" && url.password === "" && url.search === "" && url.hash === "";
}, "a root URL without a query, a fragment or credentials");

export const WeatherConfigSchema = z.strictObject({
  provider: z.enum(PROVIDER_NAMES).default("open-meteo").meta({
    description: "who answers: open-meteo (api.open-meteo.com and its geocoding API, no key)",
  }),
  baseUrl: rootUrl.optional().meta({
    description:
      "replaces the forecast API's root (a proxy, a commercial customer- host, or a fake in tests)",
  }),
  geocodingBaseUrl: rootUrl.optional().meta({
    description: "replaces the geocoding API's root, which turns place names into coordinates",
  }),
  maxDays: z
    .int()
    .min(1)
    .max(MAX_DAYS)
    .default(DEFAULT_MAX_DAYS)
    .meta({ description: `the most days one forecast may cover (at most ${MAX_DAYS})` }),
});

export type WeatherConfig = z.output<typeof WeatherConfigSchema>;
