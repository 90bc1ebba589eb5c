/**
 * @module The weather toolkit: `weather_forecast` behind the provider the deployment chose. Open-Meteo
 * needs no key, so the tool works with no configuration at all; OpenWeather takes its key in the `appid`
 * query parameter, which egress places (the tool never holds it). Egress reaches the provider's hosts only.
 */
import { defineToolkit } from "toolreg/toolkit";
import {
  createOpenMeteoProvider,
  OPEN_METEO_BASE_URL,
  OPEN_METEO_GEOCODING_URL,
} from "./open-meteo-provider.js";
import { createOpenWeatherProvider, OPENWEATHER_BASE_URL } from "./openweather-provider.js";
import { type WeatherConfig, WeatherConfigSchema } from "./weather-config.js";
import type { WeatherEnv } from "./weather-env.js";
import { weatherForecast } from "./weather-forecast.js";

export const weatherToolkit = defineToolkit<WeatherConfig, WeatherEnv>({
  id: "weather",
  version: "0.1.0",
  package: "@toolreg/tools-weather",
  description:
    "Daily weather forecasts by coordinates or place name, from Open-Meteo (no key) or OpenWeather (a key).",
  config: WeatherConfigSchema,
  // OpenWeather's placement; Open-Meteo is bound with no credential, as the finance toolkit binds yfinance.
  auth: { kind: "api-key", query: "appid" },
  hosts: [
    new URL(OPEN_METEO_BASE_URL).hostname,
    new URL(OPEN_METEO_GEOCODING_URL).hostname,
    new URL(OPENWEATHER_BASE_URL).hostname,
  ],
  tools: [weatherForecast],
  bind(config, host): WeatherEnv {
    const openWeather = config.provider === "openweather";
    const baseUrl = config.baseUrl ?? (openWeather ? OPENWEATHER_BASE_URL : OPEN_METEO_BASE_URL);
    const geocodingBaseUrl = config.geocodingBaseUrl ?? (openWeather ? baseUrl : OPEN_METEO_GEOCODING_URL);
    const hosts = [...new Set([new URL(baseUrl).hostname, new URL(geocodingBaseUrl).hostname])];
    const egress =
      openWeather && config.credentialRef
        ? host.egress({ hosts, credential: { query: "appid", credentialRef: config.credentialRef } })
        : host.egress({ hosts });
    const provider = (openWeather ? createOpenWeatherProvider : createOpenMeteoProvider)({
      baseUrl,
      geocodingBaseUrl,
      egress,
    });
    return { provider, maxDays: Math.min(config.maxDays, provider.maxDays) };
  },
});
