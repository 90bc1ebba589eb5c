/**
 * @module The Jira toolkit bound to the fake behind a real seam, as a deployment binds it: the real toolkit
 * host and egress client (loopback allowed for the fake alone), the credential resolved per call and
 * placed by egress (a stored `email:token` goes as HTTP Basic). Closing fails the suite if the fake served
 * an answer Jira's OpenAPI description does not allow.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { jiraToolkit } from "../toolkit.js";
import { type JiraFake, startJiraFake } from "./jira-fake.js";
import { jiraRoutes } from "./jira-routes.js";
import { type JiraSite, SITE, STORED_CREDENTIAL, seedSite } from "./jira-site.js";

export interface JiraHarness extends TestHarness {
  fake: JiraFake;
  site: JiraSite;
  /** Calls a tool with the stored credential (or `credential`). */
  call(name: string, input: unknown, credential?: string): Promise<Envelope>;
  /** Calls a write, approves it as a person would, and resumes it once. */
  callApproved(name: string, input: unknown): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startJiraHarness(config: Record<string, unknown> = {}): Promise<JiraHarness> {
  const site = seedSite();
  const fake = await startJiraFake({ routes: jiraRoutes(site) });
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await jiraToolkit.build({ siteUrl: SITE, apiUrl: fake.url, ...config }, host);
  const harness = createTestHarness(tools, { clock: Date.now });
  const context = (credential = STORED_CREDENTIAL) =>
    harness.context({
      credentials: {
        resolve: async (ref) =>
          ref === "jira" ? credential : Promise.reject(new Error(`no credential ${ref}`)),
      },
    });
  return {
    ...harness,
    fake,
    site,
    call: (name, input, credential) => harness.seam.call(context(credential), name, input),
    async callApproved(name, input) {
      const caller = context();
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    async close() {
      await host.close();
      await fake.close();
      if (fake.checkFailures.length > 0) {
        throw new Error(`the fake served answers Jira never sends:\n${fake.checkFailures.join("\n")}`);
      }
    },
  };
}
