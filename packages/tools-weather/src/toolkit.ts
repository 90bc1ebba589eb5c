/**
 * @module The weather toolkit: `weather_forecast` behind the provider the deployment chose. Open-Meteo
 * needs no key, so the tool works with no configuration at all; egress reaches its two hosts only.
 */
import { defineToolkit } from "toolreg/toolkit";
import {
  createOpenMeteoProvider,
  OPEN_METEO_BASE_URL,
  OPEN_METEO_GEOCODING_URL,
} from "./open-meteo-provider.js";
import { type WeatherConfig, WeatherConfigSchema } from "./weather-config.js";
import type { WeatherEnv } from "./weather-env.js";
import { weatherForecast } from "./weather-forecast.js";

export const weatherToolkit = defineToolkit<WeatherConfig, WeatherEnv>({
  id: "weather",
  version: "0.1.0",
  package: "@toolreg/tools-weather",
  description: "Daily weather forecasts by coordinates or place name, from Open-Meteo (no key).",
  config: WeatherConfigSchema,
  auth: { kind: "none" },
  hosts: [new URL(OPEN_METEO_BASE_URL).hostname, new URL(OPEN_METEO_GEOCODING_URL).hostname],
  tools: [weatherForecast],
  bind(config, host): WeatherEnv {
    const baseUrl = config.baseUrl ?? OPEN_METEO_BASE_URL;
    const geocodingBaseUrl = config.geocodingBaseUrl ?? OPEN_METEO_GEOCODING_URL;
    const hosts = [...new Set([new URL(baseUrl).hostname, new URL(geocodingBaseUrl).hostname])];
    const egress = host.egress({ hosts });
    return {
      provider: createOpenMeteoProvider({ baseUrl, geocodingBaseUrl, egress }),
      maxDays: config.maxDays,
    };
  },
});
