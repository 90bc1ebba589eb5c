/**
 * @module The GitHub toolkit bound to a fake, behind a real seam: what each area's tests start from.
 * Requests go through the real egress client (loopback allowed for the fake alone) with the credential
 * injected by egress, exactly as in a deployment.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { githubToolkit } from "../toolkit.js";
import { type FakeRoutes, type GithubFake, startGithubFake } from "./github-fake.js";
import { checkAgainstOpenApi } from "./openapi-check.js";

export const TEST_TOKEN = "ghp_test0000000000000000000000000000000000";

export interface GithubHarness extends TestHarness {
  fake: GithubFake;
  /** Calls a tool that parks for approval (every write), approves it as a person would, and resumes it once. */
  callApproved(name: string, input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startGithubHarness(
  routes: readonly FakeRoutes[],
  config: { maxItems?: number; logHosts?: string[] } = {},
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
    async callApproved(name, input) {
      const context = harness.context({ credentials });
      const parked = await harness.seam.call(context, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: context.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(context, approvalId);
    },
    async close() {
      await host.close();
      await fake.close();
      // Every answer the fake served passed GitHub's description, or the suite fails here, naming each one.
      if (fake.checkFailures.length > 0) {
        throw new Error(
          `the GitHub fake served answers GitHub never sends:\n${fake.checkFailures.join("\n")}`,
        );
      }
    },
  };
}
