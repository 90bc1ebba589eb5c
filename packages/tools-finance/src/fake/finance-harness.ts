/**
 * @module The finance toolkit bound to one provider's fake behind a real seam, as a deployment binds it:
 * the real toolkit host and egress client (loopback allowed for the fake alone), the key injected by
 * egress from the caller's credential resolver.
 */
import type { Envelope } from "toolreg";
import { createTestHarness, type TestHarness, type VendorFake } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import type { ProviderName } from "../finance-provider.js";
import { financeToolkit } from "../toolkit.js";
import { FD_KEY, startFinancialDatasetsFake } from "./financial-datasets-fake.js";
import { startOpenBBFake } from "./openbb-fake.js";
import { startYahooFake } from "./yahoo-fake.js";

export const CREDENTIAL_REF = "financial-datasets";

export interface FinanceHarness<S extends string> extends TestHarness {
  fake: VendorFake<S>;
  call(tool: string, input: unknown, key?: string): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startFinanceHarness<S extends string>(
  provider: ProviderName,
  config: Record<string, unknown> = {},
): Promise<FinanceHarness<S>> {
  const fake = (await (provider === "yfinance"
    ? startYahooFake()
    : provider === "openbb"
      ? startOpenBBFake()
      : startFinancialDatasetsFake())) as unknown as VendorFake<S>;
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const keyed = provider === "yfinance" ? {} : { credentialRef: CREDENTIAL_REF };
  const tools = await financeToolkit.build({ provider, baseUrl: fake.url, ...keyed, ...config }, host);
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    fake,
    call(tool, input, key = FD_KEY) {
      const credentials = {
        resolve: async (ref: string) =>
          ref === CREDENTIAL_REF ? key : Promise.reject(new Error(`no credential ${ref}`)),
      };
      return harness.seam.call(harness.context({ credentials }), tool, input);
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
