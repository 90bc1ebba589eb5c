/**
 * @module The maps toolkit bound to one provider's fake behind a real seam, as a deployment binds it: the
 * real toolkit host and egress client (loopback allowed for the fake alone), Google's key injected by
 * egress from the caller's credential resolver.
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness, type VendorFake } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import type { ProviderName } from "../maps-provider.js";
import { mapsToolkit } from "../toolkit.js";
import { GOOGLE_KEY, startGooglePlacesFake } from "./google-places-fake.js";
import { startNominatimFake } from "./nominatim-fake.js";

export const CREDENTIAL_REF = "google-maps";
export const TEST_USER_AGENT = "toolreg-tests/1.0 (tests@toolreg.example)";

export interface MapsHarness<S extends string> extends TestHarness {
  fake: VendorFake<S>;
  call(input: unknown, key?: string): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startMapsHarness<S extends string>(
  provider: ProviderName,
  config: Record<string, unknown> = {},
): Promise<MapsHarness<S>> {
  const fake = (await (provider === "google"
    ? startGooglePlacesFake()
    : startNominatimFake())) as unknown as VendorFake<S>;
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const own =
    provider === "google"
      ? { credentialRef: CREDENTIAL_REF }
      : { userAgent: TEST_USER_AGENT, minIntervalMs: 0 };
  const tools = await mapsToolkit.build({ provider, baseUrl: fake.url, ...own, ...config }, host);
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    fake,
    call(input, key = GOOGLE_KEY) {
      const credentials = {
        resolve: async (ref: string) =>
          ref === CREDENTIAL_REF ? key : Promise.reject(new Error(`no credential ${ref}`)),
      };
      return harness.seam.call(harness.context({ credentials }), "place_search", input);
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
