/**
 * @module The GitHub toolkit bound to a fake, behind a real seam: what each area's tests start from.
 * Requests go through the real egress client (loopback allowed for the fake alone) with the credential
 * injected by egress, exactly as in a deployment.
 */
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { githubToolkit } from "../toolkit.js";
import { type FakeRoutes, type GithubFake, startGithubFake } from "./github-fake.js";
import { checkAgainstOpenApi } from "./openapi-check.js";

export const TEST_TOKEN = "ghp_test0000000000000000000000000000000000";

export interface GithubHarness extends TestHarness {
  fake: GithubFake;
  close(): Promise<void>;
}

export async function startGithubHarness(
  routes: readonly FakeRoutes[],
  config: { maxItems?: number } = {},
): Promise<GithubHarness> {
  const fake = await startGithubFake({ routes, check: checkAgainstOpenApi });
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await githubToolkit.build({ baseUrl: fake.url, ...config }, host);
  const harness = createTestHarness(tools, { clock: Date.now });
  const credentials = {
    resolve: async (ref: string) => (ref === "github" ? TEST_TOKEN : Promise.reject(new Error(`no ${ref}`))),
  };
  return {
    ...harness,
    fake,
    context: (overrides = {}) => harness.context({ credentials, ...overrides }),
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
