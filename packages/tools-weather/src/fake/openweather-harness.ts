/**
 * @module The weather toolkit bound to the OpenWeather fake behind a real seam, as a deployment binds it:
 * the real toolkit host and egress client (loopback allowed for the fake alone), the key placed in `appid`
 * by egress from the caller's credential resolver.
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness, type VendorFake } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { weatherToolkit } from "../toolkit.js";
import { OPENWEATHER_KEY, type OpenWeatherScenario, startOpenWeatherFake } from "./openweather-fake.js";

export const CREDENTIAL_REF = "openweather";

export interface OpenWeatherHarness extends TestHarness {
  fake: VendorFake<OpenWeatherScenario>;
  call(input: unknown, key?: string): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startOpenWeatherHarness(
  config: Record<string, unknown> = {},
): Promise<OpenWeatherHarness> {
  const fake = await startOpenWeatherFake();
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await weatherToolkit.build(
    { provider: "openweather", baseUrl: fake.url, credentialRef: CREDENTIAL_REF, ...config },
    host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    fake,
    call(input, key = OPENWEATHER_KEY) {
      const credentials = {
        resolve: async (ref: string) =>
          ref === CREDENTIAL_REF ? key : Promise.reject(new Error(`no credential ${ref}`)),
      };
      return harness.seam.call(harness.context({ credentials }), "weather_forecast", input);
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
