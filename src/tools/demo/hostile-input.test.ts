import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { demoTools } from "./index.js";

let dir: string;
let path: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-demo-"));
  path = join(dir, "demo.db");
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function setUp() {
  return createTestHarness(demoTools({ demoDb: path }));
}

function tables(): unknown[] {
  const db = new Database(path, { readonly: true });
  try {
    return db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name").pluck().all();
  } finally {
    db.close();
  }
}

const INJECTIONS = [
  "Robert'); DROP TABLE contacts;--",
  "' OR '1'='1",
  '" OR tenant_id != "t1',
  "x'; ATTACH DATABASE '/tmp/evil.db' AS evil; --",
  "%",
  "_",
  "\\",
];

describe("hostile input", () => {
  it("stores SQL-looking text verbatim and drops nothing", async () => {
    const { seam, context } = setUp();
    await seam.call(context(), "crm_read", { entity: "companies" });
    const tablesBefore = tables();
    for (const [index, text] of INJECTIONS.entries()) {
      const created = await seam.call(context(), "crm_write", {
        action: "create_contact",
        firstName: text,
        lastName: text,
        email: `hostile${index}@attack.example`,
      });
      expect(created).toMatchObject({ ok: true });
      const logged = await seam.call(context(), "tasks_write", { title: text, description: text });
      expect(logged).toMatchObject({ ok: true });
    }
    expect(tables()).toEqual(tablesBefore);
    const read = await seam.call(context(), "crm_read", {
      entity: "contacts",
      query: "attack.example",
      limit: 100,
    });
    const stored = read.ok ? (read.data as { rows: { firstName: string; lastName: string }[] }).rows : [];
    expect(stored.map((row) => row.firstName)).toEqual(INJECTIONS);
    expect(stored.map((row) => row.lastName)).toEqual(INJECTIONS);
  });

  it("matches a query's quotes, wildcards and backslashes literally, within the tenant", async () => {
    const { seam, context } = setUp();
    await seam.call(context(), "crm_write", {
      action: "create_contact",
      firstName: "100%",
      lastName: "Sure_Thing",
      email: "sure@thing.example",
    });
    const ids = async (query: string, tenantId = "t1") => {
      const read = await seam.call(context({ tenantId }), "crm_read", {
        entity: "contacts",
        query,
        limit: 100,
      });
      return read.ok ? (read.data as { rows: { id: number }[] }).rows.map((row) => row.id) : read.error.code;
    };
    expect(await ids("%")).toEqual([11]);
    expect(await ids("S_re")).toEqual([]);
    expect(await ids("Sure_")).toEqual([11]);
    expect(await ids("\\")).toEqual([]);
    expect(await ids("' OR '1'='1")).toEqual([]);
    expect(await ids("%", "t2")).toEqual([]);
  });

  it("refuses strings past their bounds, blank names and control characters", async () => {
    const { seam, context } = setUp();
    const refused = [
      ["crm_read", { entity: "contacts", query: "q".repeat(201) }],
      ["crm_read", { entity: "contacts", query: "   " }],
      [
        "crm_write",
        { action: "create_contact", firstName: "a".repeat(101), lastName: "B", email: "a@b.example" },
      ],
      ["crm_write", { action: "create_contact", firstName: "A\nB", lastName: "B", email: "a@b.example" }],
      ["crm_write", { action: "create_contact", firstName: "A\u0000", lastName: "B", email: "a@b.example" }],
      ["crm_write", { action: "create_contact", firstName: "A", lastName: "B", email: "not an email" }],
      [
        "crm_write",
        { action: "create_contact", firstName: "A", lastName: "B", email: `${"a".repeat(250)}@b.example` },
      ],
      ["crm_write", { action: "log_activity", contactId: 1, subject: "S", body: "b".repeat(5_001) }],
      ["crm_write", { action: "log_activity", contactId: 1, subject: "S", body: "" }],
      ["crm_write", { action: "log_activity", contactId: 1, subject: "S", body: "bell\u0007" }],
      ["tasks_write", { title: "t".repeat(201) }],
      ["tasks_write", { title: "" }],
      ["alerts_write", { subject: "s".repeat(201) }],
      ["alerts_write", { subject: "Disk", detail: "d".repeat(5_001) }],
    ] as const;
    for (const [tool, input] of refused) {
      const envelope = await seam.call(context(), tool, input);
      expect({ tool, input, code: envelope.ok ? "ok" : envelope.error.code }).toMatchObject({
        code: "invalid_input",
      });
    }
  });

  it("refuses wrong types, unknown values and arguments the tools do not take", async () => {
    const { seam, context } = setUp();
    const refused = [
      ["crm_read", { entity: "invoices" }],
      ["crm_read", { entity: "contacts; DROP TABLE contacts" }],
      ["crm_read", { entity: "contacts", limit: "20" }],
      ["crm_read", { entity: "contacts", query: 42 }],
      ["crm_read", { entity: "contacts", tenantId: "t2" }],
      ["crm_write", { action: "delete_contact" }],
      ["crm_write", { action: "log_activity", contactId: "1 OR 1=1", subject: "S", body: "B" }],
      ["crm_write", { action: "log_activity", contactId: -1, subject: "S", body: "B" }],
      ["crm_write", { action: "log_activity", contactId: 1, subject: ["S"], body: "B" }],
      ["tasks_write", { title: { $gt: "" } }],
      ["tasks_write", { title: "T", dueInDays: 366 }],
      ["tasks_write", { title: "T", dueInDays: 1.5 }],
      ["alerts_write", { subject: "S", severity: "info" }],
      ["alerts_write", { subject: "S", severity: "PANIC" }],
      ["alerts_write", null],
    ] as const;
    for (const [tool, input] of refused) {
      const envelope = await seam.call(context(), tool, input);
      expect({ tool, input, code: envelope.ok ? "ok" : envelope.error.code }).toMatchObject({
        code: "invalid_input",
      });
    }
  });
});
