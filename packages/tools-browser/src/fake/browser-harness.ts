/**
 * @module The browser toolkit bound behind a real seam, with the host's egress policy allowing exactly the
 * test site's 127.0.0.1 (by CIDR) and, through the toolkit's port list, its one port.
 */
import { existsSync } from "node:fs";
import { approvalIdOf, type Envelope, type OkEnvelope } from "toolreg";
import { createTestHarness, type TestHarness } from "toolreg/test";
import { createToolkitHost } from "toolreg/toolkit";
import { expect } from "vitest";
import { browserToolkit } from "../toolkit.js";
import { createMemoryArtifacts, type MemoryArtifacts } from "./memory-artifacts.js";

export const CHROMIUM = "/usr/bin/chromium";
const MISSING = !existsSync(CHROMIUM);
/** A laptop without Chromium skips; CI must run these, so there a missing browser fails them. */
export const SKIP = MISSING && process.env.CI !== "true";
if (SKIP) console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install chromium)`);

/** The envelope of a call expected to succeed; a failure throws with its code and message. */
export function ok(envelope: Envelope): OkEnvelope {
  if (!envelope.ok) throw new Error(`${envelope.error.code}: ${envelope.error.message}`);
  return envelope;
}

/** The error of a call expected to fail; a success throws with the start of its content. */
export function failed(envelope: Envelope) {
  if (envelope.ok) throw new Error(`expected a failure, got: ${envelope.content.slice(0, 200)}`);
  return envelope.error;
}

export interface BrowserHarness extends TestHarness {
  artifacts: MemoryArtifacts;
  /** Calls a tool as the run `runId` does, approving a parked call (browser_navigate) as a person would. */
  call(name: string, input: unknown, runId?: string): Promise<Envelope>;
  close(): Promise<void>;
}

export async function startBrowserHarness(
  port: number,
  config: Record<string, unknown> = {},
  options: { artifacts?: boolean } = {},
): Promise<BrowserHarness> {
  expect(MISSING, `${CHROMIUM} is missing: install the chromium package before the tests`).toBe(false);
  const artifacts = createMemoryArtifacts();
  const host = createToolkitHost({
    egressPolicy: { allowCidrs: ["127.0.0.1/32"] },
    ...(options.artifacts === false ? {} : { artifacts }),
  });
  const tools = await browserToolkit.build({ ports: [port], ...config }, host);
  const harness = createTestHarness(tools, { clock: Date.now });
  return {
    ...harness,
    artifacts,
    async call(name, input, runId = "r1") {
      const caller = harness.context({ runId });
      const parked = await harness.seam.call(caller, name, input);
      const approvalId = approvalIdOf(parked);
      if (approvalId === undefined) return parked;
      await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
      return harness.seam.resume(caller, approvalId);
    },
    close: () => host.close(),
  };
}
