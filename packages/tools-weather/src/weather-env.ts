/** @module What `weather_forecast` runs against once bound: the configured provider and the deployment's bound. */
import { toolFor } from "toolreg/toolkit";
import type { WeatherProvider } from "./weather-provider.js";

export interface WeatherEnv {
  provider: WeatherProvider;
  /** The most days one forecast covers. */
  maxDays: number;
}

/** Declares a weather tool: its `run` receives the bound WeatherEnv. */
export const weatherTool = toolFor<WeatherEnv>();
