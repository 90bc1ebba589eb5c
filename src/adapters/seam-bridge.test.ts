import { describe, expect, it } from "vitest";
import { approvalIdOf } from "../seam/envelope.js";
import type { Seam } from "../seam/seam.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import {
  callThroughSeam,
  contextFor,
  frameworkNeedsApproval,
  type SeamAdapterOptions,
} from "./seam-bridge.js";

function setup(extra: Partial<SeamAdapterOptions> = {}) {
  const mail = createScriptedTool(["sent"], { name: "send_email", effect: "external-write" });
  const read = createScriptedTool(["read"], { name: "read_inbox" });
  const harness = createTestHarness([mail, read]);
  const options: SeamAdapterOptions = {
    seam: harness.seam,
    context: (toolCallId) => harness.context({ toolCallId }),
    approver: "human-1",
    ...extra,
  };
  return { ...harness, mail, read, options };
}

describe("frameworkNeedsApproval", () => {
  it("asks the framework only about a call the seam would park", async () => {
    const { options } = setup();
    expect(await frameworkNeedsApproval(options, "read_inbox", {}, "c-1")).toBe(false);
    expect(await frameworkNeedsApproval(options, "send_email", { to: "bob" }, "c-2")).toBe(true);
  });

  it("never asks the framework without an approver: the call parks in toolreg", async () => {
    const { options } = setup({ approver: undefined });
    expect(await frameworkNeedsApproval(options, "send_email", {}, "c-1")).toBe(false);
    expect(approvalIdOf(await callThroughSeam(options, "send_email", {}, "c-1", true))).toBeDefined();
  });
});

describe("callThroughSeam", () => {
  it("approves as the approver only a call the framework approved, and runs it once", async () => {
    const { options, mail, stores } = setup();
    // Not approved by the framework: it parks.
    expect(approvalIdOf(await callThroughSeam(options, "send_email", { to: "eve" }, "c-3"))).toBeDefined();
    expect(await callThroughSeam(options, "send_email", { to: "bob" }, "c-2", true)).toMatchObject({
      ok: true,
    });
    expect(mail.calls).toHaveLength(1);
    const decided = await stores.approvals.list({ tenantId: "t1", status: "executed" });
    expect(decided.map((record) => [record.toolCallId, record.decidedBy])).toEqual([["c-2", "human-1"]]);
    // The same call run again replays under its key instead of being approved again.
    expect(await callThroughSeam(options, "send_email", { to: "bob" }, "c-2", true)).toMatchObject({
      ok: true,
    });
    expect(mail.calls).toHaveLength(1);
  });

  it("lets a decision made elsewhere first stand", async () => {
    const { options, seam, mail } = setup();
    // The console denies the parked call between the park and the framework's approval.
    const racing = {
      call: async (...args: Parameters<Seam["call"]>) => {
        const parked = await seam.call(...args);
        await seam.deny({ tenantId: "t1", approvalId: approvalIdOf(parked) as string, by: "console" });
        return parked;
      },
      approve: seam.approve.bind(seam),
      resume: seam.resume.bind(seam),
    } as unknown as Seam;
    const result = await callThroughSeam({ ...options, seam: racing }, "send_email", {}, "c-9", true);
    expect(result).toMatchObject({
      ok: false,
      error: { code: "approval_denied", message: expect.stringContaining("already decided (denied)") },
    });
    expect(mail.calls).toHaveLength(0);
  });

  it("maps a call id toolreg would refuse to a stable one, and a throwing host to an envelope", async () => {
    const seen: string[] = [];
    const { options } = setup();
    const recording = {
      ...options,
      context: (id: string) => {
        seen.push(id);
        return options.context(id);
      },
    };
    const odd = `toolu_${"x".repeat(300)} with spaces`;
    expect(contextFor(recording, odd)).not.toHaveProperty("ok");
    expect(contextFor(recording, odd)).not.toHaveProperty("ok");
    expect(seen[0]).toMatch(/^call-[0-9a-f]{40}$/);
    expect(seen[1]).toBe(seen[0]);
    const broken = {
      ...options,
      context: () => {
        throw new Error("no session");
      },
    };
    expect(await callThroughSeam(broken, "read_inbox", {}, "c-1")).toEqual({
      ok: false,
      error: {
        code: "internal",
        message: "the host could not set up this call: no session",
        retryable: false,
      },
    });
  });
});
