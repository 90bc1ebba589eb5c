/**
 * @module The audio toolkit bound as a deployment binds it, for tests: the real toolkit host and egress
 * client (loopback allowed for the fake alone), an in-memory attachment store, artifacts in a scratch
 * folder, OpenAI's key injected by egress from the caller's credential resolver, and a seam in front.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createFileArtifactStore } from "../../../artifacts/file-artifact-store.js";
import type { EgressPolicyInit } from "../../../egress/egress-policy.js";
import type { ApprovalPolicy } from "../../../policy/ports.js";
import type { ArtifactStore } from "../../../ports/artifact-store.js";
import type { AttachmentOwner, AttachmentStore } from "../../../ports/attachment-store.js";
import type { AnyTool } from "../../../registry/registry.js";
import type { ExecutionContext, ExecutionContextInit } from "../../../seam/context.js";
import type { Envelope } from "../../../seam/envelope.js";
import type { Seam } from "../../../seam/seam.js";
import { createToolkitHost } from "../../toolkit/toolkit-host.js";
import type { AudioConfig } from "../audio-config.js";
import { audioToolkit } from "../toolkit.js";
import {
  OPENAI_CREDENTIAL_REF,
  OPENAI_TEST_KEY,
  type OpenAiAudioFake,
  startOpenAiAudioFake,
} from "./openai-audio-fake.js";

/** A seam in front of tools and a context factory: what `createTestHarness` (toolreg/test) gives. */
export interface SeamHarness {
  seam: Seam;
  context(overrides?: Partial<ExecutionContextInit>): ExecutionContext;
}

/** speech_generate asks the deployment's policy; tests of the tools themselves run under one that allows. */
export const ALLOW_ALL: ApprovalPolicy = {
  decide: () => ({ decision: "allow", reason: "the audio tests allow every call" }),
};

export interface AudioRigOptions {
  /** The host's attachment store (a memory one in tests). */
  attachments: AttachmentStore;
  /** Puts the built tools behind a seam: `(tools) => createTestHarness(tools, { approvalPolicy: ALLOW_ALL })`. */
  harness(tools: readonly AnyTool[]): SeamHarness;
  config?: Partial<AudioConfig>;
  egressPolicy?: EgressPolicyInit;
}

export interface AudioRig {
  fake: OpenAiAudioFake;
  tools: readonly AnyTool[];
  attachments: AttachmentStore;
  artifacts: ArtifactStore;
  harness: SeamHarness;
  /** Calls `tool` through the seam as `caller` (tenant t1, principal p1, run r1 by default) holding the key. */
  call(tool: string, input: unknown, caller?: Partial<ExecutionContextInit>): Promise<Envelope>;
  /** Attaches `bytes` for `owner` (p1 in t1 by default) and returns the attachment's id. */
  attach(bytes: Uint8Array, name?: string, owner?: AttachmentOwner): Promise<string>;
  close(): Promise<void>;
}

/** Resolves the OpenAI reference to `secret`, and nothing else. */
export function credentialsResolving(secret: string) {
  return {
    resolve: async (ref: string) => {
      if (ref !== OPENAI_CREDENTIAL_REF) throw new Error(`no credential named ${ref}`);
      return secret;
    },
  };
}

/**
 * Starts the fake and builds the toolkit against it. By default both tools use OpenAI; `config` replaces
 * either engine (`{ speech: { provider: "espeak" } }`), `egressPolicy` adds to the loopback allowance.
 * The stores and the seam come from the test (toolreg/test), which this folder does not import.
 */
export async function startAudioRig({
  attachments,
  harness: behindSeam,
  config = {},
  egressPolicy = {},
}: AudioRigOptions): Promise<AudioRig> {
  const fake = await startOpenAiAudioFake();
  const scratch = mkdtempSync(join(tmpdir(), "toolreg-audio-"));
  const artifacts = createFileArtifactStore(scratch);
  const host = {
    ...createToolkitHost({
      attachments,
      egressPolicy: { allowAddressClasses: ["loopback"], ...egressPolicy },
    }),
    artifacts,
  };
  const openai = { provider: "openai" as const, credentialRef: OPENAI_CREDENTIAL_REF, baseUrl: fake.url };
  const tools = await audioToolkit.build({ transcription: openai, speech: openai, ...config }, host);
  const harness = behindSeam(tools);
  return {
    fake,
    tools,
    attachments,
    artifacts,
    harness,
    call: (tool, input, caller = {}) =>
      harness.seam.call(
        harness.context({ credentials: credentialsResolving(OPENAI_TEST_KEY), ...caller }),
        tool,
        input,
      ),
    async attach(bytes, name = "memo.wav", owner = { tenantId: "t1", principalId: "p1", runId: "r1" }) {
      const outcome = await attachments.add(owner, { name, mediaType: "audio/wav", bytes, now: Date.now() });
      if (!outcome.added) throw new Error(outcome.reason);
      return outcome.attachment.id;
    },
    async close() {
      await host.close();
      await fake.close();
      rmSync(scratch, { recursive: true, force: true });
    },
  };
}
