import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { beforeEach, describe, expect, it } from "vitest";
import { openSqliteStores } from "../../src/stores/sqlite/index.js";
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
    // The command to approve it carries the flags that served the tool, so it can run it.
    expect(parked.stderr).toContain(
      `parked as approval ${id}; approve with: toolreg --registry ${OUTBOX} approvals approve ${id}`,
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

  it("an approval is not burned by a command that does not serve its tool; the printed command decides it", async () => {
    const parked = await send();
    const id = JSON.parse(parked.stdout).error.details.approvalId as string;
    const elsewhere = await runToolreg(["approvals", "approve", id], cwd);
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(
      `approval ${id} is for outbox_send, which this process does not serve`,
    );
    expect(elsewhere.stderr).toContain("--registry");
    const listed = await runToolreg(["--registry", OUTBOX, "approvals", "list", "--json"], cwd);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ id, status: "pending" }]);
    expect(sent()).toEqual([]);
    // Run as printed, it is approved and runs once.
    const printed = /approve with: toolreg (.*)\n/.exec(parked.stderr)?.[1] ?? "";
    const approved = await runToolreg(printed.split(" "), cwd);
    expect(approved).toMatchObject({ code: 0 });
    expect(sent()).toHaveLength(1);
  });

  it("an interrupted call is listed with what is known and runs again only on retry, once", async () => {
    const id = JSON.parse((await send(["--key", "order-9"])).stdout).error.details.approvalId as string;
    // Approved, then its process lost mid-run: what the sweep leaves behind.
    const stores = openSqliteStores(join(cwd, ".toolreg", "toolreg.db"));
    await stores.approvals.decide({ tenantId: "local", id, decision: "approved", by: "ops", at: Date.now() });
    await stores.approvals.interrupt({
      tenantId: "local",
      id,
      interruption: { reason: "lost", at: Date.now(), startedAt: Date.now() - 1_000, holder: "box-1:42" },
    });
    stores.close();
    const listed = await runToolreg(
      ["--registry", OUTBOX, "approvals", "list", "--status", "interrupted"],
      cwd,
    );
    expect(listed.stdout).toMatch(new RegExp(`^${id}\\s+interrupted\\s+outbox_send.*outcome unknown`, "m"));
    expect(listed.stdout).toContain("box-1:42");
    // Approving again is refused; resending the key is told the outcome is unknown; nothing runs.
    expect((await runToolreg(["--registry", OUTBOX, "approvals", "approve", id], cwd)).code).toBe(1);
    const resent = JSON.parse((await send(["--key", "order-9"])).stdout);
    expect(resent).toMatchObject({ ok: false, error: { details: { status: "unknown", approvalId: id } } });
    expect(sent()).toEqual([]);
    const retried = await runToolreg(
      ["--registry", OUTBOX, "approvals", "retry", id, "--note", "checked"],
      cwd,
    );
    expect(retried.code).toBe(0);
    expect(JSON.parse(retried.stdout)).toMatchObject({ ok: true, content: "sent to bob" });
    const again = await runToolreg(["--registry", OUTBOX, "approvals", "retry", id], cwd);
    expect(again).toMatchObject({
      code: 1,
      stderr: expect.stringContaining("cannot be retried: it is executed"),
    });
    expect(sent()).toHaveLength(1);
    const audit = JSON.parse((await runToolreg(["--registry", OUTBOX, "audit", "--json"], cwd)).stdout);
    expect(audit.map((event: { kind: string }) => event.kind)).toContain("approval-retry");
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
    expect(parked.stderr).toContain(`approve with: toolreg --registry ${OUTBOX} approvals approve ${id}`);
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
