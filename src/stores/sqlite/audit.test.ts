import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { auditEventOf } from "../../../test/support/audit-event.js";
import { openSqliteStores } from "./index.js";

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-audit-"));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

const event = (id: string) => auditEventOf(id);

describe("SQLite audit written behind", () => {
  it("keeps events and reports the error when a background flush finds the file locked, then writes them", async () => {
    const path = join(directory, "busy.db");
    const errors: unknown[] = [];
    const stores = openSqliteStores(path, {
      busyTimeoutMs: 5,
      audit: { flushIntervalMs: 5, onError: (e) => errors.push(e) },
    });
    const other = openSqliteStores(path);
    other.database.prepare("BEGIN IMMEDIATE").run();
    stores.audit.record(event("e1"));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(errors.length).toBeGreaterThan(0);
    expect(String(errors[0])).toMatch(/locked|busy/i);
    other.database.prepare("COMMIT").run();
    expect((await stores.audit.list({ tenantId: "t" })).map((e) => e.id)).toEqual(["e1"]);
    other.close();
    stores.close();
  });

  it("while writes fail, keeps a bounded buffer, retries on a timer rather than per event, and prints what it lets go", async () => {
    const path = join(directory, "full.db");
    const errors: unknown[] = [];
    const stores = openSqliteStores(path, {
      busyTimeoutMs: 5,
      audit: { flushIntervalMs: 0, maxBuffered: 5, onError: (e) => errors.push(e) },
    });
    const other = openSqliteStores(path);
    other.database.prepare("BEGIN IMMEDIATE").run();
    const printed = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      for (let index = 1; index <= 8; index++) stores.audit.record(event(`e${index}`));
      expect(stores.audit.failure()).toBeDefined();
      // One failed write; the next seven wait for the timer instead of each failing in turn.
      expect(errors).toHaveLength(1);
      expect(stores.audit.unwritten().map((e) => e.id)).toEqual(["e4", "e5", "e6", "e7", "e8"]);
      const dropped = printed.mock.calls.map((call) => JSON.parse(String(call[0])).unwrittenAuditEvent.id);
      expect(dropped).toEqual(["e1", "e2", "e3"]);
    } finally {
      printed.mockRestore();
      other.database.prepare("COMMIT").run();
    }
    expect((await stores.audit.list({ tenantId: "t" })).map((e) => e.id)).toEqual([
      "e8",
      "e7",
      "e6",
      "e5",
      "e4",
    ]);
    expect(stores.audit.failure()).toBeUndefined();
    other.close();
    stores.close();
  });

  it("drains the buffer when the stores are closed", async () => {
    const path = join(directory, "close.db");
    const stores = openSqliteStores(path, { audit: { flushIntervalMs: 60_000 } });
    stores.audit.record(event("e2"));
    stores.close();
    const reopened = openSqliteStores(path);
    expect((await reopened.audit.list({ tenantId: "t" })).map((e) => e.id)).toEqual(["e2"]);
    reopened.close();
  });

  it("writes a batch of events whole and in the order recorded", async () => {
    const stores = openSqliteStores(join(directory, "batch.db"), { audit: { flushIntervalMs: 60_000 } });
    const ids = Array.from({ length: 37 }, (_, i) => `e${i}`);
    for (const id of ids)
      stores.audit.record({ ...event(id), message: id === "e20" ? "a message" : undefined });
    const listed = await stores.audit.list({ tenantId: "t", limit: 100 });
    expect(listed.map((e) => e.id)).toEqual([...ids].reverse());
    expect(listed.find((e) => e.id === "e20")).toEqual({ ...event("e20"), message: "a message" });
    stores.close();
  });
});
