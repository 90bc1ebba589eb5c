import { describe, expect, it, vi } from "vitest";
import { auditEventOf } from "../../test/support/audit-event.js";
import { createMemoryStores } from "../stores/memory/index.js";
import { AuditGuard } from "./audit-guard.js";

const event = (id: string) =>
  auditEventOf(id, { toolCallId: id, tool: "post_note", effect: "external-write" });

/** A memory audit store whose writes fail while `down` is set, as a full disk's would. */
function flakySink() {
  const { audit } = createMemoryStores();
  const state = { down: true };
  const record = audit.record.bind(audit);
  audit.record = (recorded) => {
    if (state.down) throw new Error("database or disk is full");
    return record(recorded);
  };
  return { audit, state };
}

const quiet = { debug() {}, info() {}, warn() {}, error() {} };

describe("the audit guard", () => {
  it("keeps what it cannot write, refuses writes meanwhile, and writes each kept event once when the sink is back", async () => {
    const { audit, state } = flakySink();
    const guard = new AuditGuard(audit, "refuse", quiet);
    expect(guard.admit("post_note")).toBeUndefined();
    guard.record(event("e1"));
    guard.record(event("e2"));
    expect(guard.failing).toBe(true);
    expect(await guard.admit("post_note")).toMatchObject({
      ok: false,
      error: { code: "internal", retryable: true, details: { audit: "unavailable" } },
    });
    state.down = false;
    // Three calls at once: one offer, not three.
    expect(await Promise.all([guard.admit("a"), guard.admit("b"), guard.admit("c")])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect((await audit.list({ tenantId: "t" })).map((written) => written.id).sort()).toEqual(["e1", "e2"]);
    expect(guard.failing).toBe(false);
  });

  it("runs calls that change data, with one alert in the log, when the deployment says alert", async () => {
    const { audit } = flakySink();
    const errors: string[] = [];
    const guard = new AuditGuard(audit, "alert", {
      ...quiet,
      error: (_object, message) => errors.push(String(message)),
    });
    guard.record(event("e1"));
    expect(await guard.admit("post_note")).toBeUndefined();
    expect(await guard.admit("post_note")).toBeUndefined();
    expect(errors.filter((message) => message.includes("run anyway"))).toHaveLength(1);
  });

  it("without a logger of the host's, writes what it must give up to stderr, whole", async () => {
    const { audit } = flakySink();
    const guard = new AuditGuard(audit, "refuse", undefined);
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      guard.record(event("kept"));
      await guard.close();
      guard.record(event("late"));
      const lines = printed.mock.calls.map((call) => String(call[0]));
      expect(
        lines.some((line) => line.includes('"id":"kept"') && line.includes("could not be written")),
      ).toBe(true);
      expect(lines.some((line) => line.includes('"id":"late"') && line.includes("after the stop"))).toBe(
        true,
      );
    } finally {
      printed.mockRestore();
    }
  });
});
