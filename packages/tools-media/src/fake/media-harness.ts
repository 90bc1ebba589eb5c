/**
 * @module The media toolkit bound to the fake providers, behind a real seam: what each tool's tests start
 * from. Requests go through the real egress client (loopback allowed for the fake alone), the key injected by
 * egress, and results land in an artifact store in memory.
 */
import { approvalIdOf, type Envelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { afterAll, afterEach, beforeAll } from "vitest";
import type { MediaConfig } from "../media-config.js";
import { mediaToolkit } from "../toolkit.js";
import { type MediaFake, startMediaFake } from "./media-fake.js";
import { createMemoryArtifacts, type MemoryArtifacts } from "./memory-artifacts.js";

type ContextOverrides = Parameters<TestHarness["context"]>[0];

export const KEYS: Readonly<Record<string, string>> = {
  openai: "sk-test-openai",
  replicate: "r8_test",
  fal: "fal-test-key",
  luma: "luma-test-key",
  modelslab: "ml-test-key",
};

export interface MediaHarness extends TestHarness {
  fake: MediaFake;
  artifacts: MemoryArtifacts;
  context(overrides?: ContextOverrides): ReturnType<TestHarness["context"]>;
  /** Calls a tool, approving it as a person would if it parks. */
  callApproved(name: string, input: unknown, overrides?: ContextOverrides): Promise<Envelope>;
  close(): Promise<void>;
}

type Choice = {
  image?: "openai" | "replicate" | "fal" | "modelslab";
  video?: "luma" | "replicate";
  imageModel?: string;
};

/** Where each provider answers on the fake. */
function providerConfig(fake: MediaFake, provider: string, model?: string) {
  const path = {
    openai: "/openai/v1",
    replicate: "/replicate/v1",
    fal: "/fal",
    luma: "/luma/dream-machine/v1",
    modelslab: "/modelslab/api/v6/images",
  }[provider];
  return {
    provider,
    credentialRef: provider,
    baseUrl: `${fake.url}${path}`,
    deliveryHosts: ["127.0.0.1"],
    ...(model ? { model } : {}),
  };
}

export async function startMediaHarness(
  choice: Choice,
  options: { artifacts?: boolean; config?: Partial<MediaConfig> } = {},
): Promise<MediaHarness> {
  const fake = await startMediaFake();
  const artifacts = createMemoryArtifacts();
  const host = createToolkitHost({
    egressPolicy: { allowAddressClasses: ["loopback"] },
    ...(options.artifacts === false ? {} : { artifacts }),
  });
  const config = {
    pollIntervalMs: 20,
    ...(choice.image ? { image: providerConfig(fake, choice.image, choice.imageModel) } : {}),
    ...(choice.video ? { video: providerConfig(fake, choice.video) } : {}),
    ...options.config,
  };
  const harness = createTestHarness(await mediaToolkit.build(config, host), { clock: Date.now });
  const context = (overrides: ContextOverrides = {}) =>
    harness.context({
      credentials: {
        resolve: async (ref) => KEYS[ref] ?? Promise.reject(new Error(`no credential ${ref}`)),
      },
      ...overrides,
    });
  return {
    ...harness,
    fake,
    artifacts,
    context,
    async callApproved(name, input, overrides) {
      const caller = context(overrides);
      const first = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(first);
      if (approvalId === undefined) return first;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    async close() {
      await host.close();
      await fake.close();
    },
  };
}

/**
 * A harness started before the enclosing suite's tests and closed after them, the fake's requests and the
 * kept artifacts cleared after each test. It is read through a stand-in, so a suite keeps one `const` for
 * it; its members are there once the suite's tests have begun.
 */
export function useMediaHarness(
  choice: Choice,
  options: { artifacts?: boolean; config?: Partial<MediaConfig> } = {},
): MediaHarness {
  let started: MediaHarness | undefined;
  beforeAll(async () => {
    started = await startMediaHarness(choice, options);
  });
  afterAll(() => started?.close());
  afterEach(() => {
    if (!started) return;
    started.fake.requests.length = 0;
    started.artifacts.kept.length = 0;
  });
  return new Proxy({} as MediaHarness, {
    get(_, key) {
      if (!started) throw new Error("the media harness is used before its suite's tests began");
      return Reflect.get(started, key);
    },
  });
}

/** The error of a call expected to fail; a success throws with its content. */
export function failed(envelope: Envelope) {
  if (envelope.ok) throw new Error(`expected a failure, got: ${envelope.content}`);
  return envelope.error;
}
