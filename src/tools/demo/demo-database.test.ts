import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { demoTools, openDemoDatabase } from "./index.js";

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-demo-"));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function count(path: string, table: string, tenantId = "t1"): number {
  const db = new Database(path, { readonly: true });
  try {
    const row = db.prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).get(tenantId);
    return (row as { n: number }).n;
  } finally {
    db.close();
  }
}

/** Everything crm_read shows a tenant, entity by entity. */
async function everything(path: string, tenantId = "t1") {
  const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
  const entities = ["contacts", "companies", "leads"];
  return Promise.all(
    entities.map((entity) => seam.call(context({ tenantId }), "crm_read", { entity, limit: 100 })),
  );
}

describe("demoTools wiring", () => {
  it("declares the four tools exactly when demoDb is given, with the governance their effects derive", () => {
    expect(demoTools({})).toEqual([]);
    const tools = demoTools({ demoDb: join(dir, "demo.db") });
    expect(
      tools.map(({ name, category, effect, approval, idempotencyKey, overrides }) => ({
        name,
        category,
        effect,
        approval,
        idempotencyKey,
        overrides: overrides.length,
      })),
    ).toEqual([
      {
        name: "crm_read",
        category: "crm",
        effect: "read",
        approval: "never",
        idempotencyKey: false,
        overrides: 0,
      },
      {
        name: "crm_write",
        category: "crm",
        effect: "internal-write",
        approval: "never",
        idempotencyKey: false,
        overrides: 0,
      },
      {
        name: "tasks_write",
        category: "project",
        effect: "internal-write",
        approval: "never",
        idempotencyKey: false,
        overrides: 0,
      },
      {
        name: "alerts_write",
        category: "communication",
        effect: "external-write",
        approval: "always",
        idempotencyKey: true,
        overrides: 0,
      },
    ]);
  });

  it("touches no file until a tool runs", () => {
    demoTools({ demoDb: join(dir, "demo.db") });
    expect(() => new Database(join(dir, "demo.db"), { fileMustExist: true })).toThrow();
  });

  it("refuses an in-memory database, whose writes would vanish after each call", () => {
    expect(() => demoTools({ demoDb: ":memory:" })).toThrow(/path of a file/);
    expect(() => demoTools({ demoDb: "" })).toThrow(/path of a file/);
  });
});

describe("openDemoDatabase", () => {
  it("creates the tables on first open and seeds no tenant, task or alert", () => {
    const path = join(dir, "demo.db");
    openDemoDatabase(path).close();
    for (const table of [
      "seeded_tenants",
      "companies",
      "contacts",
      "leads",
      "activities",
      "tasks",
      "alerts",
    ]) {
      expect(count(path, table)).toBe(0);
    }
  });

  it("refuses another application's database and leaves it untouched", () => {
    const path = join(dir, "theirs.db");
    const theirs = new Database(path);
    theirs.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY)");
    theirs.close();
    expect(() => openDemoDatabase(path)).toThrow(/another application/);
    const after = new Database(path, { readonly: true });
    const names = after.prepare("SELECT name FROM sqlite_schema").pluck().all();
    after.close();
    expect(names).toEqual(["invoices"]);
  });

  it("refuses a file that is not a database, and a demo file of another schema version", () => {
    const text = join(dir, "notes.txt");
    writeFileSync(text, "not a database, just some words that are long enough to fill a header");
    expect(() => openDemoDatabase(text)).toThrow(/cannot use/);

    const path = join(dir, "demo.db");
    openDemoDatabase(path).close();
    const db = new Database(path);
    db.pragma("user_version = 99");
    db.close();
    expect(() => openDemoDatabase(path)).toThrow(/schema version 99/);
  });

  it("turns an unusable file into an upstream_error envelope, not a crash", async () => {
    const { seam, context } = createTestHarness(demoTools({ demoDb: join(dir, "missing", "demo.db") }));
    expect(await seam.call(context(), "crm_read", { entity: "contacts" })).toMatchObject({
      ok: false,
      error: { code: "upstream_error" },
    });
  });
});

describe("seeding", () => {
  it("gives every tenant the same dataset, deterministically, on its first call", async () => {
    const first = await everything(join(dir, "a.db"));
    const second = await everything(join(dir, "b.db"));
    const otherTenant = await everything(join(dir, "a.db"), "t2");
    expect(second).toEqual(first);
    expect(otherTenant).toEqual(first);
    const sizes = first.map((envelope) =>
      envelope.ok ? (envelope.data as { rows: unknown[] }).rows.length : -1,
    );
    expect(sizes).toEqual([10, 4, 5]);
  });

  it("seeds once: reopening keeps the tenant's writes and adds nothing", async () => {
    const path = join(dir, "demo.db");
    const before = await everything(path);
    const { seam, context } = createTestHarness(demoTools({ demoDb: path }));
    const created = await seam.call(context(), "crm_write", {
      action: "create_contact",
      firstName: "Grace",
      lastName: "Hopper",
      email: "grace@navy.example",
    });
    expect(created).toMatchObject({ ok: true, data: { id: 11 } });

    openDemoDatabase(path).close();
    await everything(path);
    await everything(path);
    expect(count(path, "contacts")).toBe(11);
    expect(count(path, "companies")).toBe(4);
    expect(count(path, "leads")).toBe(5);
    const after = await everything(path);
    expect(after.slice(1)).toEqual(before.slice(1));
  });
});
