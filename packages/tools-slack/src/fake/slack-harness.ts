/**
 * @module The Slack toolkit bound to a fake, behind a real seam: what each tool's tests start from.
 * Requests go through the real egress client (loopback allowed for the fake alone) with the credential
 * injected by egress, exactly as in a deployment.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { slackToolkit } from "../toolkit.js";
import { chatMethods } from "./chat-methods.js";
import { conversationMethods } from "./conversations-methods.js";
import { type SlackFake, startSlackFake } from "./slack-fake.js";
import { createWorkspace, TEST_TOKEN, type WorkspaceOptions } from "./workspace.js";

type ContextOverrides = Parameters<TestHarness["context"]>[0];

export interface SlackHarness extends TestHarness {
  fake: SlackFake;
  /** A context whose credential "slack" resolves to `token` (TEST_TOKEN unless given). */
  context(overrides?: ContextOverrides & { token?: string }): ReturnType<TestHarness["context"]>;
  /** Calls a tool that parks for approval (every write), approves it as a person would, and resumes it once. */
  callApproved(name: string, input: unknown, token?: string): Promise<Envelope>;
  close(): Promise<void>;
}

export interface SlackHarnessOptions extends WorkspaceOptions {
  maxItems?: number;
  /** Requests per minute a token may make to a method, as Slack's tiers set. */
  perMinute?: Readonly<Record<string, number>>;
}

export async function startSlackHarness(options: SlackHarnessOptions = {}): Promise<SlackHarness> {
  const fake = await startSlackFake({
    methods: { ...conversationMethods, ...chatMethods },
    workspace: createWorkspace(options),
    ...(options.perMinute ? { perMinute: options.perMinute } : {}),
  });
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const config = { baseUrl: fake.url, ...(options.maxItems ? { maxItems: options.maxItems } : {}) };
  const harness = createTestHarness(await slackToolkit.build(config, host), { clock: Date.now });
  const context = ({ token = TEST_TOKEN, ...overrides }: ContextOverrides & { token?: string } = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) => (ref === "slack" ? token : Promise.reject(new Error(`no credential ${ref}`))),
      },
      ...overrides,
    });
  return {
    ...harness,
    fake,
    context,
    async callApproved(name, input, token) {
      const caller = context(token === undefined ? {} : { token });
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}
