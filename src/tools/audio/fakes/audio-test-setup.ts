/**
 * @module What the audio test files set up alike: whether espeak-ng is here (in CI it must be), the
 * context the seam hands a tool's run, and an audio rig started before a suite's tests and closed after.
 */
import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, expect } from "vitest";
import {
  createExecutionContext,
  type ExecutionContextInit,
  type ToolContext,
} from "../../../seam/context.js";
import { type AudioRig, type AudioRigOptions, startAudioRig } from "./audio-rig.js";

/** Whether espeak-ng runs here; its tests skip where it does not, but in CI its absence is an error. */
export function espeakInstalled(): boolean {
  let installed = true;
  try {
    execFileSync("espeak-ng", ["--version"], { stdio: "ignore" });
  } catch {
    installed = false;
  }
  if (!installed && process.env.CI === "true")
    throw new Error("espeak-ng must be installed in CI (.ci/run installs it)");
  return installed;
}

/** What the seam hands a tool's run: the caller's context (t1, p1, r1), its signal and a 30 s deadline. */
export function runContext(
  signal: AbortSignal = new AbortController().signal,
  caller: Partial<ExecutionContextInit> = {},
): ToolContext {
  return {
    ...createExecutionContext({
      tenantId: "t1",
      principalId: "p1",
      runId: "r1",
      toolCallId: "c1",
      ...caller,
    }),
    signal,
    deadline: Date.now() + 30_000,
    idempotencyKey: undefined,
    approvalId: undefined,
  };
}

/**
 * A rig started before the enclosing suite's tests and closed after them, once the fake is seen to have
 * had only requests of OpenAI's documented shape. Its members are read once it has started.
 */
export function useAudioRig(options: AudioRigOptions): AudioRig {
  let started: AudioRig | undefined;
  beforeAll(async () => {
    started = await startAudioRig(options);
  });
  afterAll(async () => {
    if (!started) return;
    expect(started.fake.problems).toEqual([]);
    await started.close();
  });
  const rig = (): AudioRig => {
    if (!started) throw new Error("the audio rig is used before its suite started it");
    return started;
  };
  return {
    get fake() {
      return rig().fake;
    },
    get tools() {
      return rig().tools;
    },
    get attachments() {
      return rig().attachments;
    },
    get artifacts() {
      return rig().artifacts;
    },
    get harness() {
      return rig().harness;
    },
    call: (tool, input, caller) => rig().call(tool, input, caller),
    attach: (bytes, name, owner) => rig().attach(bytes, name, owner),
    close: () => rig().close(),
  };
}
