import { describe, expect, it } from "vitest";
import type { Authorizer } from "../policy/ports.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import type { Envelope } from "./envelope.js";

const DAY = 24 * 60 * 60 * 1000;

function approvalIdOf(envelope: Envelope): string {
  if (envelope.ok || envelope.error.code !== "approval_required")
    throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  return envelope.error.details?.approvalId as string;
}

function sendTool(extra: Parameters<typeof createScriptedTool>[1] = {}) {
  return createScriptedTool([(input) => ({ content: "sent", data: { sent: input } })], {
    name: "send_message",
    effect: "external-write",
    description: "Sends a message.",
    ...extra,
  });
}

describe("seam: approvals", () => {
  it("parks an always-approval call: stored with arguments, hash and requester, described, not performed", async () => {
    const tool = sendTool();
    const { seam, context, stores } = createTestHarness([tool]);
    const envelope = await seam.call(context({ principalId: "alice" }), "send_message", {
      to: "bob",
      text: "hi",
    });
    const id = approvalIdOf(envelope);
    expect(tool.calls).toHaveLength(0);
    const record = await stores.approvals.get({ tenantId: "t1", id });
    expect(record).toMatchObject({
      status: "pending",
      toolName: "send_message",
      definitionHash: tool.hash,
      requestedBy: "alice",
      input: { to: "bob", text: "hi" },
    });
    expect(record?.description).toContain(
      'send_message v1.0.0 (external-write): Sends a message. Arguments: {"text":"hi","to":"bob"}',
    );
    expect(await stores.approvals.get({ tenantId: "t2", id })).toBeUndefined();
  });

  it("runs an approved call exactly once, even when resumed twice concurrently, and replays afterwards", async () => {
    const tool = sendTool();
    const { seam, context, stores } = createTestHarness([tool]);
    const asker = context({ principalId: "alice" });
    const id = approvalIdOf(await seam.call(asker, "send_message", { to: "bob" }));
    expect(await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({ ok: true });
    const [first, second] = await Promise.all([
      seam.resume(asker, id, { onInProgress: "wait" }),
      seam.resume(asker, id, { onInProgress: "wait" }),
    ]);
    expect(first).toEqual({ ok: true, content: "sent", data: { sent: { to: "bob" } } });
    expect(second).toEqual(first);
    expect(await seam.resume(asker, id)).toEqual(first);
    expect(tool.calls).toHaveLength(1);
    expect(tool.calls[0]?.context.approvalId).toBe(id);
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({
      status: "executed",
      decidedBy: "carol",
      result: first,
    });
  });

  it("a retry of the original call after it ran replays rather than asking again", async () => {
    const tool = sendTool();
    const { seam, context } = createTestHarness([tool]);
    const asker = context({ principalId: "alice", toolCallId: "call-7" });
    const id = approvalIdOf(await seam.call(asker, "send_message", { to: "bob" }));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const ran = await seam.resume(asker, id);
    expect(await seam.call(asker, "send_message", { to: "bob" })).toEqual(ran);
    expect(tool.calls).toHaveLength(1);
  });

  it("another principal's call under the same run and call ids is refused before parking, not answered with the first result", async () => {
    const tool = sendTool();
    const { seam, context, stores } = createTestHarness([tool]);
    const alice = context({ principalId: "alice", toolCallId: "call-7" });
    const id = approvalIdOf(await seam.call(alice, "send_message", { to: "bob" }));
    const dave = context({ principalId: "dave", toolCallId: "call-7" });
    // While alice's call waits for a decision, and after it ran: refused either way, nothing parked.
    expect(await seam.call(dave, "send_message", { to: "bob" })).toMatchObject({
      ok: false,
      error: { code: "idempotency_conflict" },
    });
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    await seam.resume(alice, id);
    const refused = await seam.call(dave, "send_message", { to: "bob" });
    expect(refused).toMatchObject({ ok: false, error: { code: "idempotency_conflict" } });
    expect(JSON.stringify(refused)).not.toContain("sent");
    expect((await stores.approvals.list({ tenantId: "t1" })).map((record) => record.id)).toEqual([id]);
    expect(tool.calls.map((call) => call.context.principalId)).toEqual(["alice"]);
  });

  it("approve racing deny: the first commit wins, the other is told", async () => {
    const { seam, context } = createTestHarness([sendTool()]);
    const id = approvalIdOf(await seam.call(context(), "send_message", {}));
    const results = await Promise.all([
      seam.approve({ tenantId: "t1", approvalId: id, by: "carol" }),
      seam.deny({ tenantId: "t1", approvalId: id, by: "dave" }),
    ]);
    expect(results.filter((result) => result.ok)).toHaveLength(1);
    expect(results.find((result) => !result.ok)).toMatchObject({ reason: "already_decided" });
  });

  it("a denied call never runs and says who denied it", async () => {
    const tool = sendTool();
    const { seam, context } = createTestHarness([tool]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_message", {}));
    expect(await seam.resume(asker, id)).toMatchObject({ ok: false, error: { code: "approval_required" } });
    await seam.deny({ tenantId: "t1", approvalId: id, by: "carol", note: "not today" });
    expect(await seam.resume(asker, id)).toMatchObject({
      ok: false,
      error: { code: "approval_denied", message: expect.stringContaining("carol: not today") },
    });
    expect(tool.calls).toHaveLength(0);
  });

  it("re-checks authorization at resume: a grant revoked after approval means no execution", async () => {
    const tool = sendTool({ scopes: ["messages:send"] });
    const grants = new Set(["alice"]);
    const authorizer: Authorizer = { authorize: (context) => grants.has(context.principalId) };
    const { seam, context, stores } = createTestHarness([tool], { authorizer });
    const asker = context({ principalId: "alice" });
    const id = approvalIdOf(await seam.call(asker, "send_message", {}));
    grants.delete("alice");
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const resumed = await seam.resume(asker, id);
    expect(resumed).toMatchObject({ ok: false, error: { code: "not_authorized" } });
    grants.add("alice");
    expect(await seam.resume(asker, id)).toEqual(resumed);
    expect(tool.calls).toHaveLength(0);
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "refused" });
  });

  it("only the requester's context can resume", async () => {
    const tool = sendTool();
    const { seam, context } = createTestHarness([tool]);
    const id = approvalIdOf(await seam.call(context({ principalId: "alice" }), "send_message", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await seam.resume(context({ principalId: "mallory" }), id)).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(await seam.resume(context({ principalId: "alice", tenantId: "t2" }), id)).toMatchObject({
      ok: false,
      error: { code: "not_authorized" },
    });
    expect(tool.calls).toHaveLength(0);
  });

  it("a tool whose definition changed since parking is not run but re-asks", async () => {
    const original = sendTool();
    const { seam, context, registry, stores } = createTestHarness([original]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_message", { to: "bob" }));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const changed = sendTool({
      version: "1.1.0",
      description: "Sends a message, and now also a copy elsewhere.",
    });
    registry.update(changed);
    const resumed = await seam.resume(asker, id);
    const freshId = approvalIdOf(resumed);
    expect(freshId).not.toBe(id);
    expect(original.calls.length + changed.calls.length).toBe(0);
    expect(await stores.approvals.get({ tenantId: "t1", id: freshId })).toMatchObject({
      status: "pending",
      definitionHash: changed.hash,
      input: { to: "bob" },
    });
    await seam.approve({ tenantId: "t1", approvalId: freshId, by: "carol" });
    expect(await seam.resume(asker, freshId)).toMatchObject({ ok: true });
    expect(changed.calls).toHaveLength(1);
  });

  it("expires after seven days by default", async () => {
    const { seam, context, clock, stores } = createTestHarness([sendTool()]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_message", {}));
    clock.advance(7 * DAY - 1);
    const early = approvalIdOf(await seam.call(context(), "send_message", { n: 2 }));
    clock.advance(1);
    expect(await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" })).toMatchObject({
      ok: false,
      reason: "expired",
    });
    expect(await seam.resume(asker, id)).toMatchObject({ ok: false, error: { code: "approval_denied" } });
    expect(await seam.approve({ tenantId: "t1", approvalId: early, by: "carol" })).toMatchObject({
      ok: true,
    });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "expired" });
  });

  it("asks the host's policy for policy tools and records its decision", async () => {
    const tool = createScriptedTool(["fetched"], {
      name: "fetch_url",
      approval: "policy",
      overrideReason: "the URL is the model's choice",
    });
    const decisions: Record<string, "allow" | "ask" | "deny"> = { a: "allow", b: "ask", c: "deny" };
    const { seam, context, stores } = createTestHarness([tool], {
      approvalPolicy: {
        decide: ({ input }) => ({
          decision: decisions[(input as { u: string }).u] ?? "deny",
          reason: "test policy",
        }),
      },
    });
    expect((await seam.call(context(), "fetch_url", { u: "a" })).ok).toBe(true);
    approvalIdOf(await seam.call(context(), "fetch_url", { u: "b" }));
    expect(await seam.call(context(), "fetch_url", { u: "c" })).toMatchObject({
      ok: false,
      error: { code: "approval_denied" },
    });
    expect(tool.calls).toHaveLength(1);
    const calls = (await stores.audit.list({ tenantId: "t1" })).filter((event) => event.kind === "tool-call");
    expect(calls.map((event) => event.approval).reverse()).toEqual([
      "policy:allow",
      "policy:ask",
      "policy:deny",
    ]);
  });

  it("previews the approval step without running, parking or asking twice for the same answer", async () => {
    const send = sendTool();
    const read = createScriptedTool(["read"], { name: "read_page", effect: "read" });
    const fetch = createScriptedTool(["fetched"], {
      name: "fetch_url",
      approval: "policy",
      overrideReason: "the URL is the model's choice",
    });
    const write = createScriptedTool(["noted"], { name: "save_note", effect: "internal-write" });
    const { seam, context, stores } = createTestHarness([send, read, fetch, write], {
      approvalPolicy: {
        decide: ({ input }) => ({ decision: (input as { d: "allow" | "ask" }).d, reason: "t" }),
      },
    });
    expect(await seam.needsApproval(context(), "send_message", { to: "bob" })).toBe(true);
    expect(await seam.needsApproval(context(), "read_page", {})).toBe(false);
    expect(await seam.needsApproval(context(), "fetch_url", { d: "ask" })).toBe(true);
    expect(await seam.needsApproval(context(), "fetch_url", { d: "allow" })).toBe(false);
    expect(await seam.needsApproval(context(), "save_note", {})).toBe(false);
    expect(await seam.needsApproval(context({ mode: "gated" }), "save_note", {})).toBe(true);
    expect(await seam.needsApproval(context({ mode: "gated" }), "read_page", {})).toBe(false);
    // What the call itself refuses is not a question for a human.
    expect(await seam.needsApproval(context(), "no_such_tool", {})).toBe(false);
    expect(await seam.needsApproval(context({ mode: "disabled" }), "send_message", {})).toBe(false);
    expect(send.calls).toHaveLength(0);
    expect(await stores.approvals.list({ tenantId: "t1" })).toEqual([]);
  });

  it("the same tool call parked again after it ran replays, even for a tool without a key of its own", async () => {
    const note = createScriptedTool(["saved"], { name: "save_note", effect: "internal-write" });
    const { seam, context } = createTestHarness([note]);
    const gated = context({ mode: "gated", toolCallId: "call-1" });
    const first = approvalIdOf(await seam.call(gated, "save_note", { text: "a" }));
    await seam.approve({ tenantId: "t1", approvalId: first, by: "carol" });
    expect(await seam.resume(gated, first)).toMatchObject({ ok: true, content: "saved" });
    // A framework resends its approval for the same call: the result replays, nothing runs twice.
    expect(await seam.call(gated, "save_note", { text: "a" })).toMatchObject({ ok: true, content: "saved" });
    expect(note.calls).toHaveLength(1);
    // The same call id with other arguments is another call, and is refused before it is parked.
    expect(await seam.call(gated, "save_note", { text: "b" })).toMatchObject({
      ok: false,
      error: { code: "idempotency_conflict" },
    });
    expect(note.calls).toHaveLength(1);
  });

  it("never persists a secret the context resolved", async () => {
    const secret = "xoxb-very-secret-token";
    const tool = sendTool();
    const steps = createScriptedTool(
      [
        async (_input, context) => {
          const token = await context.credentials.resolve("slack", context);
          return { content: `used ${token.length} chars` };
        },
      ],
      { name: "post_slack", effect: "external-write" },
    );
    const { seam, context, stores } = createTestHarness([tool, steps]);
    const asker = context({ credentials: { resolve: async () => secret } });
    const id = approvalIdOf(await seam.call(asker, "post_slack", { channel: "#general" }));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await seam.resume(asker, id)).toMatchObject({ ok: true, content: "used 22 chars" });
    const persisted = JSON.stringify([
      await stores.approvals.list({ tenantId: "t1" }),
      await stores.audit.list({ tenantId: "t1", limit: 1000 }),
      await stores.idempotency.list({ tenantId: "t1" }),
    ]);
    expect(persisted).toContain("#general");
    expect(persisted).not.toContain(secret);
  });
});

describe("seam: sweep", () => {
  it("purges completed keys past their retention and expires stale approvals", async () => {
    const tool = sendTool();
    const { seam, context, clock, stores } = createTestHarness([tool], { retentionMs: 1_000 });
    const id = approvalIdOf(await seam.call(context(), "send_message", { to: "a" }));
    const done = approvalIdOf(await seam.call(context(), "send_message", { to: "b" }));
    await seam.approve({ tenantId: "t1", approvalId: done, by: "carol" });
    await seam.resume(context(), done);
    expect(await seam.sweep()).toEqual({ purged: 0, expired: 0, settled: 0 });
    clock.advance(1_000);
    expect(await seam.sweep()).toEqual({ purged: 1, expired: 0, settled: 0 });
    expect(await stores.idempotency.list({ tenantId: "t1" })).toEqual([]);
    clock.advance(7 * DAY);
    expect(await seam.sweep()).toEqual({ purged: 0, expired: 1, settled: 0 });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "expired" });
  });
});
