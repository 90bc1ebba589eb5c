/**
 * @module The scrape toolkit bound as a deployment binds it, behind a real seam: the real toolkit host and
 * egress client, loopback allowed for the local site and fakes unless a test gives its own egress policy,
 * the provider key injected by egress from the caller's credential resolver.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import type { ScrapeConfig } from "../scrape-config.js";
import { scrapeToolkit } from "../toolkit.js";

export const TEST_KEY = "fc-test-key-0123456789";

type EgressPolicy = NonNullable<Parameters<typeof createToolkitHost>[0]>["egressPolicy"];

export interface ScrapeHarness extends TestHarness {
  /** Calls a tool as a caller whose credentials resolve to TEST_KEY, approving it if it parks. */
  call(name: string, input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startScrapeHarness(
  config: Partial<ScrapeConfig> & Record<string, unknown> = {},
  egressPolicy: EgressPolicy = { allowAddressClasses: ["loopback"] },
): Promise<ScrapeHarness> {
  const host = createToolkitHost({ egressPolicy });
  const harness = createTestHarness(await scrapeToolkit.build(config, host), { clock: Date.now });
  const credentials = {
    resolve: async (ref: string) =>
      ref === "scrape-key" ? TEST_KEY : Promise.reject(new Error(`no credential ${ref}`)),
  };
  return {
    ...harness,
    async call(name, input) {
      const caller = harness.context({ credentials });
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    close: () => host.close(),
  };
}
