/** @module @toolreg/tools-weather — the weather toolkit; load it by name from toolreg.config.json or pass it to createToolreg. */

export { weatherToolkit } from "./toolkit.js";
export { type WeatherConfig, WeatherConfigSchema } from "./weather-config.js";
export type { WeatherProvider } from "./weather-provider.js";
