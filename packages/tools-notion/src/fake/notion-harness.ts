/**
 * @module The Notion toolkit bound to the fake, behind a real seam: what each tool's tests start from.
 * Requests go through the real egress client (loopback allowed for the fake alone) with the token injected
 * by egress, exactly as in a deployment.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, beforeAll, beforeEach } from "vitest";
import type { NotionConfig } from "../notion-config.js";
import { notionToolkit } from "../toolkit.js";
import { type NotionFake, startNotionFake } from "./notion-fake.js";
import { createWorld, TEST_TOKEN } from "./notion-world.js";

type ContextOverrides = Parameters<TestHarness["context"]>[0];

export interface NotionHarness extends TestHarness {
  fake: NotionFake;
  /** A context whose credential "notion" resolves to `token` (TEST_TOKEN unless given; null: none stored). */
  context(overrides?: ContextOverrides & { token?: string | null }): ReturnType<TestHarness["context"]>;
  /** Calls a read tool. */
  call(name: string, input: unknown, token?: string | null): Promise<Envelope>;
  /** Calls a write, which parks for approval; approves it as a person would and resumes it once. */
  callApproved(name: string, input: unknown, token?: string | null): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startNotionHarness(config: Partial<NotionConfig> = {}): Promise<NotionHarness> {
  const fake = await startNotionFake(createWorld());
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const harness = createTestHarness(await notionToolkit.build({ ...config, baseUrl: fake.url }, host), {
    clock: Date.now,
  });
  const context = ({ token = TEST_TOKEN, ...overrides }: ContextOverrides & { token?: string | null } = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) =>
          ref === "notion" && token !== null ? token : Promise.reject(new Error(`no credential ${ref}`)),
      },
      ...overrides,
    });
  return {
    ...harness,
    fake,
    context,
    call: (name, input, token) =>
      harness.seam.call(context(token === undefined ? {} : { token }), name, input),
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

/** One harness per test file, with a fresh world and request log before each test. */
export function useNotionHarness(config: Partial<NotionConfig> = {}): () => NotionHarness {
  let notion: NotionHarness | undefined;
  beforeAll(async () => {
    notion = await startNotionHarness(config);
  });
  beforeEach(() => {
    if (!notion) return;
    const fresh = createWorld();
    Object.assign(notion.fake.world, fresh);
    notion.fake.requests.length = 0;
    notion.fake.unknownProperties = "accept";
    notion.fake.pageCap = undefined;
    notion.fake.incompleteQuery = false;
  });
  afterAll(() => notion?.close());
  return () => {
    if (!notion) throw new Error("the Notion harness is not started");
    return notion;
  };
}

/** The failure of an envelope that must have failed. */
export function failureOf(envelope: Envelope) {
  if (envelope.ok) throw new Error(`expected a failure, got: ${envelope.content}`);
  return envelope.error;
}

/** The envelope of a call that must have succeeded. */
export function success(envelope: Envelope) {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope;
}
