import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../declaration/define-tool.js";
import { createScriptedTool } from "../test/scripted-tool.js";
import { createTestHarness } from "../test/test-harness.js";
import type { Envelope } from "./envelope.js";

const allowAll = { decide: () => ({ decision: "allow" as const, reason: "test" }) };
const keyed = (
  steps: Parameters<typeof createScriptedTool>[0],
  extra: Parameters<typeof createScriptedTool>[1] = {},
) =>
  createScriptedTool(steps, {
    name: "post_entry",
    effect: "external-write",
    approval: "policy",
    overrideReason: "tests the keyed path without parking",
    ...extra,
  });
const approvalIdOf = (envelope: Envelope) =>
  envelope.ok ? "" : (envelope.error.details?.approvalId as string);

describe("seam: what tools and hosts hand back", () => {
  it("turns unprintable throws, non-text content and broken thenables into envelopes", async () => {
    const { seam, context } = createTestHarness([
      createScriptedTool([() => Promise.reject(Object.create(null))], { name: "throws_null_proto" }),
      createScriptedTool([{ content: 42 as unknown as string }], { name: "numeric_content" }),
      createScriptedTool([{ content: "x", provenance: { source: 7 } as never }], { name: "bad_provenance" }),
      createScriptedTool(
        [
          () => ({
            // biome-ignore lint/suspicious/noThenProperty: the hostile value under test is a broken thenable.
            then() {
              throw new Error("then exploded");
            },
          }),
        ],
        { name: "broken_thenable", limits: { timeoutMs: 60_000 } },
      ),
    ]);
    expect(await seam.call(context(), "throws_null_proto", {})).toMatchObject({
      ok: false,
      error: { code: "internal", message: "throws_null_proto failed: an unprintable value" },
    });
    expect(await seam.call(context(), "numeric_content", {})).toMatchObject({
      ok: false,
      error: { code: "output_invalid" },
    });
    expect(await seam.call(context(), "bad_provenance", {})).toMatchObject({
      ok: false,
      error: { code: "output_invalid" },
    });
    expect(await seam.call(context(), "broken_thenable", {})).toMatchObject({
      ok: false,
      error: { code: "internal", message: expect.stringContaining("then exploded") },
    });
  });

  it("does not let a throwing authorizer's unprintable error escape", async () => {
    const { seam, context } = createTestHarness([createScriptedTool(["x"], { name: "look" })], {
      authorizer: {
        authorize() {
          throw Object.create(null);
        },
      },
    });
    expect(await seam.call(context(), "look", {})).toMatchObject({ ok: false, error: { code: "internal" } });
  });

  it("answers with an envelope, never a throw, when the host's logger and clock throw too", async () => {
    const explode = () => {
      throw new Error("host part exploded");
    };
    const logger = { debug: explode, info: explode, warn: explode, error: explode };
    let clockCalls = 0;
    const { seam, context } = createTestHarness([createScriptedTool(["x"], { name: "look" })], {
      authorizer: { authorize: explode },
    });
    const crashed = seam.call(context({ logger }), "look", {});
    await expect(crashed).resolves.toMatchObject({ ok: false, error: { code: "internal" } });
    const timed = createTestHarness([createScriptedTool(["x"], { name: "look" })], {
      // Fine while the call runs, broken when the call is recorded.
      clock: () => (++clockCalls > 1 ? explode() : Date.now()),
    });
    await expect(timed.seam.call(timed.context({ logger }), "look", {})).resolves.toMatchObject({ ok: true });
    const broken = createTestHarness([createScriptedTool(["x"], { name: "look" })], { clock: explode });
    await expect(broken.seam.call(broken.context({ logger }), "look", {})).resolves.toMatchObject({
      ok: false,
      error: { code: "internal", message: expect.stringContaining("host part exploded") },
    });
  });

  it("stores a result for every claimed call, so a keyed write never runs twice", async () => {
    const bigint = keyed([{ content: "posted", data: { id: 10n } }]);
    const { seam, context, clock } = createTestHarness([bigint], {
      approvalPolicy: allowAll,
      leaseGraceMs: 0,
    });
    const first = await seam.call(context({ toolCallId: "a" }), "post_entry", {});
    expect(first).toMatchObject({ ok: false, error: { code: "output_invalid" } });
    clock.advance(60_000);
    expect(await seam.call(context({ toolCallId: "a" }), "post_entry", {})).toEqual(first);
    expect(bigint.calls).toHaveLength(1);

    const guarded = keyed(["posted"]);
    const throwing = createTestHarness([guarded], {
      approvalPolicy: allowAll,
      guardrails: [
        {
          name: "broken",
          check() {
            throw new Error("guardrail crashed");
          },
        },
      ],
    });
    const once = await throwing.seam.call(throwing.context({ toolCallId: "g" }), "post_entry", {});
    expect(once).toMatchObject({
      ok: false,
      error: { code: "internal", message: expect.stringContaining("guardrail crashed") },
    });
    expect(await throwing.seam.call(throwing.context({ toolCallId: "g" }), "post_entry", {})).toEqual(once);
    expect(guarded.calls).toHaveLength(1);
  });

  it("caps data with the content, dropping data that does not fit whole", async () => {
    const big = createScriptedTool([{ content: "summary", data: { rows: "x".repeat(5_000) } }], {
      name: "export_rows",
      limits: { outputBytes: 1_000 },
    });
    const { seam, context } = createTestHarness([big]);
    expect(await seam.call(context(), "export_rows", {})).toEqual({
      ok: true,
      content: "summary",
      truncated: true,
    });
  });
});

describe("seam: hostile arguments on the keyed and parked paths", () => {
  it("keeps a __proto__ key in the fingerprint, so other arguments under the same key conflict", async () => {
    const tool = defineTool({
      name: "post_entry",
      description: "Posts an entry.",
      category: "communication",
      effect: "external-write",
      approval: "policy",
      overrideReason: "tests the keyed path without parking",
      input: { type: "object" },
      run: () => "posted",
    });
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    await seam.call(context({ idempotencyKey: "k" }), "post_entry", JSON.parse('{"to":"bob"}'));
    const other = await seam.call(
      context({ idempotencyKey: "k" }),
      "post_entry",
      JSON.parse('{"to":"bob","__proto__":{"x":1}}'),
    );
    expect(other).toMatchObject({ ok: false, error: { code: "idempotency_conflict" } });
  });

  it("derives keys that two different (run, call) pairs cannot share", async () => {
    const tool = keyed(["posted"]);
    const { seam, context } = createTestHarness([tool], { approvalPolicy: allowAll });
    await seam.call(context({ runId: "a/call:b", toolCallId: "c" }), "post_entry", {});
    await seam.call(context({ runId: "a", toolCallId: "b/call:c" }), "post_entry", {});
    expect(tool.calls).toHaveLength(2);
  });

  it("refuses arguments that nest too deeply or are too large to fingerprint or park", async () => {
    let deep: unknown = {};
    for (let i = 0; i < 200_000; i++) deep = { d: deep };
    const tool = keyed(["posted"]);
    const { seam, context } = createTestHarness(
      [tool, createScriptedTool(["sent"], { name: "send_mail", effect: "external-write" })],
      {
        approvalPolicy: allowAll,
      },
    );
    expect(await seam.call(context(), "post_entry", { deep })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("nest too deeply") },
    });
    expect(await seam.call(context(), "send_mail", { body: "x".repeat(2 * 1024 * 1024) })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("over 1048576 characters") },
    });
    expect(tool.calls).toHaveLength(0);
  });
});

describe("seam: resume edge cases", () => {
  it("a resume that cannot start leaves the approval approved, and a later resume runs it once", async () => {
    const tool = createScriptedTool(["sent"], { name: "send_mail", effect: "external-write" });
    const { seam, context, stores } = createTestHarness([tool]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_mail", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(
      await seam.resume(context({ toolCallId: asker.toolCallId, signal: AbortSignal.abort() }), id),
    ).toMatchObject({
      ok: false,
      error: { code: "timeout" },
    });
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ status: "approved" });
    expect(await seam.resume(asker, id)).toEqual({ ok: true, content: "sent" });
    expect(tool.calls).toHaveLength(1);
  });

  it("resumes a call whose schema transforms its input, from the arguments the model sent", async () => {
    const tool = defineTool({
      name: "send_amount",
      description: "Sends an amount.",
      category: "finance",
      effect: "external-write",
      input: z.object({ cents: z.string().transform(Number) }),
      run: ({ cents }) => ({ data: { cents } }),
    });
    const { seam, context, stores } = createTestHarness([tool]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_amount", { cents: "250" }));
    expect(await stores.approvals.get({ tenantId: "t1", id })).toMatchObject({ input: { cents: "250" } });
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await seam.resume(asker, id)).toMatchObject({ ok: true, data: { cents: 250 } });
  });

  it("concurrent resumes after a definition change ask for one new approval, not several", async () => {
    const tool = createScriptedTool(["sent"], { name: "send_mail", effect: "external-write" });
    const { seam, context, registry, stores } = createTestHarness([tool]);
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_mail", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    registry.update(
      createScriptedTool(["sent"], { name: "send_mail", effect: "external-write", version: "2.0.0" }),
    );
    const results = await Promise.all([
      seam.resume(asker, id),
      seam.resume(asker, id),
      seam.resume(asker, id),
    ]);
    const freshIds = new Set(results.map(approvalIdOf));
    expect(freshIds.size).toBe(1);
    expect(await stores.approvals.list({ tenantId: "t1", status: "pending" })).toMatchObject([
      { id: [...freshIds][0] },
    ]);
  });

  it("an approval that was approved but not run within its lifetime expires", async () => {
    const tool = createScriptedTool(["sent"], { name: "send_mail", effect: "external-write" });
    const { seam, context, clock } = createTestHarness([tool], { approvalTtlMs: 1_000 });
    const asker = context();
    const id = approvalIdOf(await seam.call(asker, "send_mail", {}));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    clock.advance(1_000);
    expect(await seam.resume(asker, id)).toMatchObject({
      ok: false,
      error: { code: "approval_denied", message: expect.stringContaining("expired before it ran") },
    });
    expect(tool.calls).toHaveLength(0);
  });
});
