import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { ToolContext } from "../../seam/context.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import { createTestHarness } from "../../test/test-harness.js";
import { demoTools } from "./index.js";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-demo-"));
  path = join(dir, "demo.db");
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

function rows(sql: string): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare(sql).all();
  } finally {
    db.close();
  }
}

function parkedId(envelope: Envelope): string {
  const id = approvalIdOf(envelope);
  if (id === undefined) throw new Error(`expected a parked call, got ${JSON.stringify(envelope)}`);
  return id;
}

describe("approval-gated writes", () => {
  it.each([
    {
      tool: "crm_write",
      input: {
        action: "create_contact",
        firstName: "Grace",
        lastName: "Hopper",
        email: "grace@navy.example",
      },
      table: "contacts",
      before: 10,
    },
    { tool: "tasks_write", input: { title: "Call Maya about the quote" }, table: "tasks", before: 0 },
  ])(
    "$tool parks in gated mode, then runs once after approve and resume",
    async ({ tool, input, table, before }) => {
      const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
      const asker = context({ mode: "gated" });
      const id = parkedId(await seam.call(asker, tool, input));
      const countRows = () => rows(`SELECT id FROM ${table} WHERE tenant_id = 't1'`).length;
      // Parking ran nothing; a read creates the file and seeds the tenant, so the count has a baseline.
      await seam.call(asker, "crm_read", { entity: "contacts" });
      expect(countRows()).toBe(before);

      await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
      const first = await seam.resume(asker, id);
      expect(first).toMatchObject({ ok: true });
      expect(await seam.resume(asker, id)).toEqual(first);
      expect(countRows()).toBe(before + 1);
    },
  );

  it("tasks_write stores the due date that many days from today, and none when not asked", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2025-03-30T22:00:00Z"));
    const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
    const dated = await seam.call(context(), "tasks_write", {
      title: "Review the renewal quote",
      description: "Check the discount\nagainst last year.",
      dueInDays: 3,
    });
    expect(dated).toEqual({
      ok: true,
      content: "Added task 1: Review the renewal quote (due 2025-04-02).",
      data: { id: 1, dueDate: "2025-04-02" },
    });
    expect(await seam.call(context(), "tasks_write", { title: "Someday" })).toMatchObject({
      ok: true,
      data: { id: 2, dueDate: null },
    });
    expect(rows("SELECT id, description, due_date, requested_by, created_at FROM tasks ORDER BY id")).toEqual(
      [
        {
          id: 1,
          description: "Check the discount\nagainst last year.",
          due_date: "2025-04-02",
          requested_by: "p1",
          created_at: "2025-03-30T22:00:00.000Z",
        },
        {
          id: 2,
          description: null,
          due_date: null,
          requested_by: "p1",
          created_at: "2025-03-30T22:00:00.000Z",
        },
      ],
    );
  });

  it("alerts_write parks even in active mode and, resumed twice, raises one alert", async () => {
    const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
    const asker = context({ mode: "active" });
    const id = parkedId(
      await seam.call(asker, "alerts_write", { subject: "Renewal at risk", severity: "WARNING" }),
    );
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    const [first, second] = await Promise.all([
      seam.resume(asker, id, { onInProgress: "wait" }),
      seam.resume(asker, id, { onInProgress: "wait" }),
    ]);
    expect(first).toEqual({
      ok: true,
      content: "Raised alert 1 (WARNING): Renewal at risk.",
      data: { id: 1, severity: "WARNING", replayed: false },
    });
    expect(second).toEqual(first);
    expect(await seam.resume(asker, id)).toEqual(first);
    expect(rows("SELECT id, severity, detail, raised_by, idempotency_key FROM alerts")).toEqual([
      { id: 1, severity: "WARNING", detail: null, raised_by: "p1", idempotency_key: expect.any(String) },
    ]);
  });

  it("alerts_write defaults to INFO", async () => {
    const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
    const asker = context();
    const id = parkedId(await seam.call(asker, "alerts_write", { subject: "FYI" }));
    await seam.approve({ tenantId: "t1", approvalId: id, by: "carol" });
    expect(await seam.resume(asker, id)).toMatchObject({ ok: true, data: { severity: "INFO" } });
  });

  it("alerts_write run twice under one key inserts once, even past the seam", async () => {
    const alerts = demoTools({ demoDb: path }).find((tool) => tool.name === "alerts_write");
    const { context } = createTestHarness([]);
    const toolContext = (idempotencyKey: string, tenantId = "t1"): ToolContext => ({
      ...context({ tenantId }),
      signal: new AbortController().signal,
      deadline: Date.now() + 10_000,
      idempotencyKey,
      approvalId: undefined,
    });
    const input = { subject: "Disk almost full", severity: "CRITICAL", detail: "93% on db-1" };
    const first = await alerts?.run(input, toolContext("key-1"));
    const again = await alerts?.run({ ...input, subject: "A retry with other words" }, toolContext("key-1"));
    expect(first).toMatchObject({ data: { id: 1, replayed: false } });
    expect(again).toMatchObject({ data: { id: 1, replayed: true } });
    // A key is scoped to its tenant: the same key elsewhere is another call.
    expect(await alerts?.run(input, toolContext("key-1", "t2"))).toMatchObject({
      data: { id: 1, replayed: false },
    });
    expect(rows("SELECT tenant_id, subject FROM alerts ORDER BY tenant_id")).toEqual([
      { tenant_id: "t1", subject: "Disk almost full" },
      { tenant_id: "t2", subject: "Disk almost full" },
    ]);
  });
});
