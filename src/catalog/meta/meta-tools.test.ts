import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { failingOnQueries } from "../../../test/support/failing-embeddings.js";
import { createArtifactOutputStore } from "../../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../../artifacts/file-artifact-store.js";
import type { Authorizer } from "../../policy/ports.js";
import type { AnyTool } from "../../registry/registry.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness, type TestHarness } from "../../test/test-harness.js";
import { generalTools } from "../../tools/general/index.js";
import { metaTools } from "./index.js";

const scratch = mkdtempSync(join(tmpdir(), "toolreg-meta-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sendMail = () =>
  createScriptedTool([(input) => ({ content: "sent", data: { sent: input } })], {
    name: "send_email",
    description: "Sends an email message to a recipient.",
    category: "communication",
    effect: "external-write",
  });
const secretTool = () =>
  createScriptedTool(["payroll"], {
    name: "read_payroll",
    description: "Reads the payroll: salaries of every employee.",
    category: "finance",
    scopes: ["finance:read"],
  });
const saveNote = () =>
  createScriptedTool(["saved"], {
    name: "save_note",
    description: "Saves a note for later.",
    effect: "internal-write",
  });

/** A seam serving `tools` plus the meta-tools over that same seam, with outputs kept under `scratch`. */
function served(tools: readonly AnyTool[], options: { authorizer?: Authorizer } = {}): TestHarness {
  const outputs = createArtifactOutputStore(
    createFileArtifactStore(join(scratch, `outputs-${Math.random()}`)),
  );
  let harness: TestHarness | undefined;
  const meta = metaTools({ seam: () => (harness as TestHarness).seam, outputs });
  harness = createTestHarness([...tools, ...meta], { ...options, outputs });
  return harness;
}

function ok(envelope: Envelope) {
  if (!envelope.ok) throw new Error(`expected ok, got ${JSON.stringify(envelope)}`);
  return envelope;
}

describe("find_tools", () => {
  it("ranks what fits the task among the tools this caller may use, never a meta-tool or a hidden tool", async () => {
    const { seam, context } = served([...generalTools({}), sendMail(), secretTool()]);
    const found = ok(await seam.call(context(), "find_tools", { query: "arithmetic expression", limit: 20 }));
    const names = (found.data as { tools: { name: string }[] }).tools.map((tool) => tool.name);
    expect(names[0]).toBe("calculate");
    expect(found.content).toContain("arguments: expression: string");
    const payroll = ok(await seam.call(context(), "find_tools", { query: "payroll salaries" }));
    expect((payroll.data as { tools: unknown[] }).tools).toEqual([]);
    expect(payroll.content).toContain('No tool you may use matches "payroll salaries"');
    const withScope = ok(
      await seam.call(context({ scopes: ["finance:read"] }), "find_tools", { query: "payroll salaries" }),
    );
    expect((withScope.data as { tools: { name: string }[] }).tools.map((tool) => tool.name)).toEqual([
      "read_payroll",
    ]);
    const meta = ok(
      await seam.call(context(), "find_tools", { query: "find tools search learn execute output" }),
    );
    expect(
      (meta.data as { tools: { category: string }[] }).tools.every((tool) => tool.category !== "meta"),
    ).toBe(true);
  });

  it("narrows by category and reports effect and approval, so the model knows a write will be parked", async () => {
    const { seam, context } = served([...generalTools({}), sendMail()]);
    const found = ok(await seam.call(context(), "find_tools", { query: "send", category: "communication" }));
    expect(found.data).toMatchObject({
      tools: [{ name: "send_email", effect: "external-write", approval: "always" }],
    });
    expect(found.content).toContain("send_email (external-write, approval always)");
  });

  it("ranks by words alone, and says so in the log, when the embedding service fails on the query", async () => {
    const failing = failingOnQueries("embeddings request refused with HTTP 503: overloaded");
    const outputs = createArtifactOutputStore(createFileArtifactStore(join(scratch, "outputs-hybrid")));
    let harness: TestHarness | undefined;
    const meta = metaTools({
      seam: () => (harness as TestHarness).seam,
      outputs,
      embeddings: failing,
    });
    harness = createTestHarness([...generalTools({}), sendMail(), ...meta], { outputs });
    const warnings: string[] = [];
    const logger = {
      debug() {},
      info() {},
      error() {},
      warn: (_: object, message?: string) => warnings.push(message ?? ""),
    };
    const found = ok(
      await harness.seam.call(harness.context({ logger }), "find_tools", { query: "arithmetic expression" }),
    );
    expect(failing.catalogueEmbedded).toBe(true);
    expect((found.data as { tools: { name: string }[] }).tools[0]?.name).toBe("calculate");
    expect(warnings).toEqual(["embedding the query failed; find_tools searched lexically"]);
  });

  it("refuses a bad query with a correctable error", async () => {
    const { seam, context } = served(generalTools({}));
    expect(await seam.call(context(), "find_tools", { query: "   " })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
    expect(await seam.call(context(), "find_tools", { query: "x", category: "meta" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });
});

describe("learn_tools", () => {
  it("gives the full schema of visible tools and names the rest with their nearest neighbours", async () => {
    const { seam, context } = served([...generalTools({}), secretTool()]);
    const learned = ok(
      await seam.call(context(), "learn_tools", { names: ["calculate", "calculat", "read_payroll"] }),
    );
    expect(learned.data).toMatchObject({
      tools: [{ name: "calculate", parameters: { type: "object", required: ["expression"] } }],
      unknown: [
        { name: "calculat", nearest: ["calculate"] },
        { name: "read_payroll", nearest: [] },
      ],
    });
    expect(await seam.call(context(), "learn_tools", { names: ["read_payroll"] })).toMatchObject({
      ok: false,
      error: { code: "unknown_tool" },
    });
  });
});

describe("execute_tool", () => {
  it("runs the target through the seam: validated, recorded under the same tool call", async () => {
    const { seam, context, stores } = served(generalTools({}));
    const result = ok(
      await seam.call(context({ toolCallId: "call-7" }), "execute_tool", {
        name: "calculate",
        arguments: { expression: "6*7" },
      }),
    );
    expect(result).toMatchObject({ content: "42", data: { value: "42" } });
    const audit = await stores.audit.list({ tenantId: "t1" });
    expect(audit.map((event) => [event.tool, event.toolCallId, event.outcome]).sort()).toEqual([
      ["calculate", "call-7", "ok"],
      ["execute_tool", "call-7", "ok"],
    ]);
    expect(
      await seam.call(context(), "execute_tool", {
        name: "calculate",
        arguments: { expression: "6*", x: 1 },
      }),
    ).toMatchObject({ ok: false, error: { code: "invalid_input", message: expect.stringContaining('"x"') } });
  });

  it("applies the target's approval and idempotency, not its own: parked, run once after approval, replayed", async () => {
    const mail = sendMail();
    const { seam, context } = served([mail]);
    const asker = context({ toolCallId: "call-1" });
    const input = { name: "send_email", arguments: { to: "bob" } };
    expect(await seam.needsApproval(asker, "execute_tool", input)).toBe(true);
    expect(await seam.needsApproval(asker, "execute_tool", { name: "find_tools", arguments: {} })).toBe(
      false,
    );
    const parked = await seam.call(asker, "execute_tool", input);
    const approvalId = approvalIdOf(parked);
    expect(approvalId).toBeDefined();
    expect(mail.calls).toHaveLength(0);
    await seam.approve({ tenantId: "t1", approvalId: approvalId as string, by: "carol" });
    expect(ok(await seam.resume(asker, approvalId as string))).toMatchObject({ content: "sent" });
    // The model retries the same tool call: the target's key replays, nothing is sent twice.
    expect(ok(await seam.call(asker, "execute_tool", input))).toMatchObject({ content: "sent" });
    expect(mail.calls).toHaveLength(1);
  });

  it("parks a data-changing target for a gated assistant", async () => {
    const note = saveNote();
    const { seam, context } = served([note]);
    const gated = context({ mode: "gated" });
    expect(await seam.call(gated, "execute_tool", { name: "save_note", arguments: {} })).toMatchObject({
      ok: false,
      error: { code: "approval_required" },
    });
    expect(note.calls).toHaveLength(0);
  });

  it("refuses a tool the caller may not see, by name, and never runs a meta-tool", async () => {
    const payroll = secretTool();
    const { seam, context } = served([payroll]);
    expect(await seam.call(context(), "execute_tool", { name: "read_payroll", arguments: {} })).toMatchObject(
      {
        ok: false,
        error: { code: "unknown_tool", message: expect.stringContaining('no tool named "read_payroll"') },
      },
    );
    expect(payroll.calls).toHaveLength(0);
    expect(
      await seam.call(context(), "execute_tool", {
        name: "execute_tool",
        arguments: { name: "read_payroll" },
      }),
    ).toMatchObject({ ok: false, error: { code: "invalid_input" } });
  });
});

describe("read_tool_output", () => {
  const long = Array.from({ length: 400 }, (_, index) => `line ${index}`).join("\n");
  const chatty = (extra: Parameters<typeof createScriptedTool>[1] = {}) =>
    createScriptedTool([long], { name: "dump_log", limits: { outputBytes: 1_000 }, ...extra });

  function refOf(envelope: Envelope): { ref: string; offset: number } {
    const content = ok(envelope).content;
    const match = /read_tool_output \{"ref":"(out_[0-9a-f]{64})","offset":(\d+)\}/.exec(content);
    if (!match) throw new Error(`no ref in ${content}`);
    return { ref: match[1] as string, offset: Number(match[2]) };
  }

  it("keeps a cut output whole and pages it back to the last character", async () => {
    const { seam, context } = served([chatty()]);
    const cut = ok(await seam.call(context(), "dump_log", {}));
    expect(cut.truncated).toBe(true);
    expect(Buffer.byteLength(cut.content)).toBeLessThanOrEqual(1_000);
    const { ref, offset } = refOf(cut);
    expect(long.startsWith(cut.content.slice(0, offset))).toBe(true);
    let text = long.slice(0, offset);
    let next: number | null = offset;
    let pages = 0;
    while (next !== null && pages < 20) {
      const page = ok(await seam.call(context(), "read_tool_output", { ref, offset: next, length: 700 }));
      const data = page.data as { offset: number; length: number; total: number; nextOffset: number | null };
      text += long.slice(data.offset, data.offset + data.length);
      expect(page.content.startsWith(long.slice(data.offset, data.offset + data.length))).toBe(true);
      next = data.nextOffset;
      pages++;
    }
    expect(text).toBe(long);
    expect(next).toBeNull();
  });

  it("reads a kept output only for the tenant and principal whose call made it", async () => {
    const { seam, context } = served([chatty()]);
    const { ref } = refOf(await seam.call(context(), "dump_log", {}));
    for (const stranger of [context({ principalId: "p2" }), context({ tenantId: "t2" })]) {
      expect(await seam.call(stranger, "read_tool_output", { ref })).toMatchObject({
        ok: false,
        error: { code: "invalid_input", message: expect.stringContaining("no kept output") },
      });
    }
    expect(await seam.call(context(), "read_tool_output", { ref, offset: 1_000_000 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("past the end") },
    });
  });

  it("fences every page of an untrusted output again", async () => {
    const page = createScriptedTool(
      [{ content: long, provenance: { source: "https://example.com", trusted: false } }],
      {
        name: "read_page",
        limits: { outputBytes: 1_000 },
      },
    );
    const { seam, context } = served([page]);
    const cut = ok(await seam.call(context(), "read_page", {}));
    expect(cut.content).toMatch(/^<untrusted-content id="[0-9a-f]+" source="https:\/\/example.com">/);
    expect(Buffer.byteLength(cut.content)).toBeLessThanOrEqual(1_000);
    const { ref, offset } = refOf(cut);
    const next = ok(await seam.call(context(), "read_tool_output", { ref, offset }));
    expect(next.content).toMatch(/^<untrusted-content id="[0-9a-f]+" source="https:\/\/example.com">/);
    expect(next.provenance).toEqual({ source: "https://example.com", trusted: false });
  });

  it("keeps dropped data aside when the content fitted", async () => {
    const rows = Array.from({ length: 200 }, (_, index) => ({ id: index, name: `row ${index}` }));
    const query = createScriptedTool([{ content: "200 rows", data: { rows } }], {
      name: "list_rows",
      limits: { outputBytes: 1_000 },
    });
    const { seam, context } = served([query]);
    const cut = ok(await seam.call(context(), "list_rows", {}));
    expect(cut.data).toBeUndefined();
    expect(cut.content.startsWith("200 rows\n[list_rows's data")).toBe(true);
    const { ref } = refOf(cut);
    const page = ok(await seam.call(context(), "read_tool_output", { ref, length: 32_000 }));
    const data = page.data as { length: number; total: number };
    expect(JSON.parse(page.content.slice(0, data.length))).toEqual({ rows });
  });

  it("without an output store the cut is still reported, and read_tool_output does not exist", async () => {
    const { seam, context, registry } = createTestHarness([chatty()]);
    const cut = ok(await seam.call(context(), "dump_log", {}));
    expect(cut.truncated).toBe(true);
    expect(cut.content).not.toContain("read_tool_output");
    expect(registry.get("read_tool_output")).toBeUndefined();
    expect(metaTools({}).map((tool) => tool.name)).toEqual([]);
  });
});
