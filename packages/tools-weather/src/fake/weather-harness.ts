/**
 * @module The weather toolkit bound to the Open-Meteo fake behind a real seam, as a deployment binds it:
 * the real toolkit host and egress client (loopback allowed for the fake alone).
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness, type VendorFake } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { weatherToolkit } from "../toolkit.js";
import { type OpenMeteoScenario, startOpenMeteoFake } from "./open-meteo-fake.js";

export interface WeatherHarness extends TestHarness {
  fake: VendorFake<OpenMeteoScenario>;
  call(input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startWeatherHarness(config: Record<string, unknown> = {}): Promise<WeatherHarness> {
  const fake = await startOpenMeteoFake();
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await weatherToolkit.build(
    { baseUrl: fake.url, geocodingBaseUrl: fake.url, ...config },
    host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    fake,
    call: (input) => harness.seam.call(harness.context(), "weather_forecast", input),
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
