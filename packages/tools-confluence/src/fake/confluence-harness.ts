/**
 * @module The Confluence toolkit bound to the fake behind a real seam, as a deployment binds it: the real
 * toolkit host and egress client (loopback allowed for the fake alone), the credential injected by egress
 * from the caller's resolver (an email:token pair, sent as Basic), every write parked for approval.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { confluenceToolkit } from "../toolkit.js";
import { type ConfluenceFake, startConfluenceFake, TEST_BASIC } from "./confluence-fake.js";

type ContextOverrides = Parameters<TestHarness["context"]>[0];

export interface ConfluenceHarness extends TestHarness {
  fake: ConfluenceFake;
  /** A context whose credential "confluence" resolves to `secret` (the test email:token unless given). */
  context(overrides?: ContextOverrides & { secret?: string }): ReturnType<TestHarness["context"]>;
  call(name: string, input: unknown): Promise<Envelope>;
  /** Calls a tool that parks for approval, approves it as a person would, and resumes it once. */
  callApproved(name: string, input: unknown, context?: ReturnType<TestHarness["context"]>): Promise<Envelope>;
  /** The requests the fake saw since the harness started or `forget` was last called. */
  sent(): ConfluenceFake["requests"];
  forget(): void;
  close(): Promise<void>;
}

export async function startConfluenceHarness(
  config: Record<string, unknown> = {},
): Promise<ConfluenceHarness> {
  const fake = await startConfluenceFake();
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const tools = await confluenceToolkit.build(
    { siteUrl: "https://acme.atlassian.net", apiUrl: fake.url, ...config },
    host,
  );
  const harness = createTestHarness(tools, { clock: Date.now });
  const context = ({ secret = TEST_BASIC, ...overrides }: ContextOverrides & { secret?: string } = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) =>
          ref === "confluence" ? secret : Promise.reject(new Error(`no credential ${ref}`)),
      },
      ...overrides,
    });
  let seen = 0;
  return {
    ...harness,
    fake,
    context,
    call: (name, input) => harness.seam.call(context(), name, input),
    async callApproved(name, input, caller = context()) {
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    sent: () => fake.requests.slice(seen),
    forget() {
      seen = fake.requests.length;
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}

/** The Authorization header egress sends for the test's email:token. */
export const BASIC_HEADER = `Basic ${Buffer.from(TEST_BASIC, "utf8").toString("base64")}`;

/** An envelope's failure, or a thrown error naming what came instead. */
export function failureOf(envelope: Envelope) {
  if (envelope.ok) throw new Error(`expected a failure, got ${envelope.content ?? "ok"}`);
  return envelope.error;
}

/** An envelope's success, or a thrown error naming the failure. */
export function successOf(envelope: Envelope) {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope;
}
