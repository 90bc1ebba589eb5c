/**
 * @module The Linear toolkit bound to the fake behind a real seam: what each tool's tests start from.
 * Requests go through the real egress client (loopback allowed for the fake alone) with the API key
 * injected by egress, exactly as in a deployment.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { linearToolkit } from "../toolkit.js";
import { type LinearFake, startLinearFake } from "./linear-fake.js";
import { createWorld, TEST_KEY } from "./linear-world.js";

export const CREDENTIAL_REF = "linear";

type ContextOverrides = Parameters<TestHarness["context"]>[0];
type CallContext = ContextOverrides & { key?: string | null };

export interface LinearHarness extends TestHarness {
  fake: LinearFake;
  /** A context whose credential "linear" resolves to `key` (TEST_KEY unless given; null: none is stored). */
  context(overrides?: CallContext): ReturnType<TestHarness["context"]>;
  call(name: string, input: unknown, overrides?: CallContext): Promise<Envelope>;
  /** Calls a write, approves it as a person would, and resumes it once. */
  callApproved(name: string, input: unknown, overrides?: CallContext): Promise<Envelope>;
  close(): Promise<void>;
}

export interface LinearHarnessOptions {
  maxItems?: number;
  /** More ENG issues, for pagination. */
  extraIssues?: number;
  /** Another harness's fake, so two seams (two stores) can reach one workspace. */
  fake?: LinearFake;
}

export async function startLinearHarness(options: LinearHarnessOptions = {}): Promise<LinearHarness> {
  const fake = options.fake ?? (await startLinearFake(createWorld(options.extraIssues)));
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const config = { endpoint: fake.endpoint, ...(options.maxItems ? { maxItems: options.maxItems } : {}) };
  const harness = createTestHarness(await linearToolkit.build(config, host), { clock: Date.now });
  const context = ({ key = TEST_KEY, ...overrides }: CallContext = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) =>
          ref === CREDENTIAL_REF && key !== null ? key : Promise.reject(new Error(`no credential ${ref}`)),
      },
      ...overrides,
    });
  return {
    ...harness,
    fake,
    context,
    call: (name, input, overrides) => harness.seam.call(context(overrides), name, input),
    async callApproved(name, input, overrides) {
      const caller = context(overrides);
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    async close() {
      await host.close();
      if (!options.fake) await fake.close();
    },
  };
}

/** The envelope's data, or a thrown error naming the failure: for tests that expect success. */
export function okData<T>(envelope: Envelope): T {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope.data as T;
}

/** The envelope's error, or a thrown error: for tests that expect a failure. */
export function failureOf(envelope: Envelope) {
  if (envelope.ok) throw new Error(`expected a failure, got: ${envelope.content}`);
  return envelope.error;
}
