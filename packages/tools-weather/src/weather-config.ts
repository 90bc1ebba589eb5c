/**
 * @module The weather toolkit's configuration: which provider answers, where (a proxy, or a fake in tests),
 * how many days one forecast may cover, and for OpenWeather the credentialRef of its key (egress places it
 * in `appid`). Open-Meteo takes no key.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";
import { PROVIDER_NAMES } from "./weather-provider.js";

export const DEFAULT_MAX_DAYS = 7;
/** Open-Meteo forecasts up to 16 days ahead (its `forecast_days` parameter). */
export const MAX_DAYS = 16;

const rootUrl = apiRootUrl();

export const WeatherConfigSchema = z
  .strictObject({
    provider: z.enum(PROVIDER_NAMES).default("open-meteo").meta({
      description:
        "who answers: open-meteo (api.open-meteo.com and its geocoding API, no key) or openweather (api.openweathermap.org's free 5 day / 3 hour forecast, five days at most, with a key)",
    }),
    credentialRef: z.string().min(1).max(200).optional().meta({
      description:
        "the name of OpenWeather's API key in the deployment's credential store; egress sends it as appid",
    }),
    baseUrl: rootUrl.optional().meta({
      description: "replaces the forecast API's root (a proxy, or a fake in tests)",
    }),
    geocodingBaseUrl: rootUrl.optional().meta({
      description:
        "replaces the geocoding API's root, which turns place names into coordinates (OpenWeather's is baseUrl's)",
    }),
    maxDays: z
      .int()
      .min(1)
      .max(MAX_DAYS)
      .default(DEFAULT_MAX_DAYS)
      .meta({
        description: `the most days one forecast may cover (at most ${MAX_DAYS}; OpenWeather's reach is 5)`,
      }),
  })
  .superRefine((config, issues) => {
    if (config.provider === "openweather" && config.credentialRef === undefined) {
      issues.addIssue({
        code: "custom",
        path: ["credentialRef"],
        message: "openweather needs the credentialRef of its API key",
      });
    }
    if (config.provider === "open-meteo" && config.credentialRef !== undefined) {
      issues.addIssue({ code: "custom", path: ["credentialRef"], message: "open-meteo takes no API key" });
    }
  });

export type WeatherConfig = z.output<typeof WeatherConfigSchema>;
