import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { runToolreg } from "./run-cli.js";

const OUTBOX = fileURLToPath(new URL("../fixtures/outbox/catalogue.mjs", import.meta.url));
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-approvals-"));
});
const sent = () =>
  existsSync(join(cwd, "outbox.jsonl"))
    ? readFileSync(join(cwd, "outbox.jsonl"), "utf8").trim().split("\n")
    : [];
const send = (extra: string[] = []) =>
  runToolreg(
    ["--registry", OUTBOX, "call", "outbox_send", "--input", '{"to":"bob","text":"hi"}', ...extra],
    cwd,
  );

describe("toolreg CLI approvals", () => {
  it("parks an external-write call; a later command approves it and runs it exactly once", async () => {
    const parked = await send();
    expect(parked.code).toBe(1);
    const envelope = JSON.parse(parked.stdout);
    expect(envelope).toMatchObject({ ok: false, error: { code: "approval_required" } });
    const id = envelope.error.details.approvalId as string;
    expect(parked.stderr).toContain(
      `parked as approval ${id}; approve with: toolreg approvals approve ${id}`,
    );
    expect(sent()).toEqual([]);

    const listed = await runToolreg(["--registry", OUTBOX, "approvals", "list", "--status", "pending"], cwd);
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+pending\\s+outbox_send\\s+operator`, "m"));

    const approved = await runToolreg(
      ["--registry", OUTBOX, "approvals", "approve", id, "--note", "fine"],
      cwd,
    );
    expect(approved.code).toBe(0);
    expect(JSON.parse(approved.stdout)).toEqual({ ok: true, content: "sent to bob", data: { to: "bob" } });
    expect(sent()).toHaveLength(1);

    const again = await runToolreg(["--registry", OUTBOX, "approvals", "approve", id], cwd);
    expect(again).toMatchObject({
      code: 1,
      stderr: `error: approval ${id} was already decided (executed)\n`,
    });
    expect(sent()).toHaveLength(1);
  });

  it("denies a parked call, which then never runs", async () => {
    const id = JSON.parse((await send()).stdout).error.details.approvalId;
    const denied = await runToolreg(["--registry", OUTBOX, "approvals", "deny", id, "--note", "no"], cwd);
    expect(denied).toMatchObject({ code: 0, stdout: `denied approval ${id} (outbox_send)\n` });
    expect(sent()).toEqual([]);
  });

  it("call --approve records the operator's approval in the audit trail and runs it in one step", async () => {
    const result = await send(["--approve"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ ok: true, content: "sent to bob" });
    expect(sent()).toHaveLength(1);
    const audit = JSON.parse((await runToolreg(["--registry", OUTBOX, "audit", "--json"], cwd)).stdout);
    expect(
      audit.map(
        (event: { kind: string; actor: string; outcome: string }) =>
          `${event.kind}:${event.actor}:${event.outcome}`,
      ),
    ).toEqual([
      "approval-resume:operator:ok",
      "approval-decision:operator:approved",
      "tool-call:operator:approval_required",
      "approval-request:operator:approval_required",
    ]);
  });

  it("a retried call with the same key replays instead of sending twice", async () => {
    await send(["--approve", "--key", "order-42"]);
    const retry = await send(["--approve", "--key", "order-42"]);
    expect(JSON.parse(retry.stdout)).toMatchObject({ ok: true, content: "sent to bob" });
    expect(sent()).toHaveLength(1);
    expect(JSON.parse(sent()[0] ?? "{}").key).toBe("order-42");
  });
});

describe("toolreg CLI meta-tools", () => {
  const call = (name: string, input: unknown) =>
    runToolreg(["--registry", OUTBOX, "call", name, "--input", JSON.stringify(input)], cwd);

  it("finds a tool, calls it with execute_tool under its own approval, and a later command approves it", async () => {
    const found = JSON.parse((await call("find_tools", { query: "send a message" })).stdout);
    expect(found.data.tools[0]).toMatchObject({ name: "outbox_send", approval: "always" });
    const parked = await call("execute_tool", { name: "outbox_send", arguments: { to: "bob", text: "hi" } });
    const id = JSON.parse(parked.stdout).error.details.approvalId as string;
    expect(parked.stderr).toContain(`approve with: toolreg approvals approve ${id}`);
    expect(sent()).toEqual([]);
    const approved = await runToolreg(["--registry", OUTBOX, "approvals", "approve", id], cwd);
    expect(approved).toMatchObject({ code: 0 });
    expect(sent()).toHaveLength(1);
  });

  it("pages an output that was over its cap from the next command with read_tool_output", async () => {
    const whole = Array.from({ length: 100 }, (_, index) => `delivery ${index}`).join("\n");
    const cut = JSON.parse((await call("outbox_log", { lines: 100 })).stdout);
    expect(cut).toMatchObject({ ok: true, truncated: true });
    const [, ref, offset] = /"ref":"(out_[0-9a-f]+)","offset":(\d+)/.exec(cut.content) ?? [];
    let text = whole.slice(0, Number(offset));
    let next: number | null = Number(offset);
    while (next !== null) {
      const page = JSON.parse((await call("read_tool_output", { ref, offset: next, length: 5000 })).stdout);
      text += whole.slice(page.data.offset, page.data.offset + page.data.length);
      next = page.data.nextOffset;
    }
    expect(text).toBe(whole);
  });
});
