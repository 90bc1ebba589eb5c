/**
 * The SQLite store on a real full filesystem: a 3 MB tmpfs mounted for the test (root only, as CI runs).
 * Nothing that ran is reported failed, nothing is run twice once space returns, no audit event is lost.
 */
import { execFileSync } from "node:child_process";
import {
  appendFileSync,
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../src/declaration/define-tool.js";
import { ToolRegistry } from "../../src/registry/registry.js";
import type { AuditFailureMode } from "../../src/seam/audit-guard.js";
import { createExecutionContext } from "../../src/seam/context.js";
import { Seam } from "../../src/seam/seam.js";
import { openSqliteStores, type SqliteStores } from "../../src/stores/sqlite/index.js";

const root = mkdtempSync(join(tmpdir(), "toolreg-full-disk-"));
const small = join(root, "small");
const filler = join(small, "filler");
const executions = join(root, "executions.log");

/** Mounts a 3 MB tmpfs, or says why it cannot; a machine under CI must be able to. */
function mountSmallDisk(): string | undefined {
  mkdirSync(small, { recursive: true });
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=3m", "tmpfs", small], { stdio: "pipe" });
    return undefined;
  } catch (error) {
    return `cannot mount a tmpfs here (${(error as Error).message.split("\n")[0]})`;
  }
}

/** Writes until the filesystem refuses: the next page SQLite asks for will not be there. */
function fillDisk(): void {
  const fd = openSync(filler, "a");
  const chunk = Buffer.alloc(16 * 1024, 1);
  try {
    for (;;) writeSync(fd, chunk);
  } catch {
    // ENOSPC: full.
  } finally {
    closeSync(fd);
  }
  // Smaller writes take the last scraps.
  const last = openSync(filler, "a");
  try {
    for (;;) writeSync(last, Buffer.alloc(512, 1));
  } catch {
    // full to the byte
  } finally {
    closeSync(last);
  }
}

const ran = (key: string) =>
  readFileSync(executions, "utf8")
    .split("\n")
    .filter((line) => line === key).length;

/** An external-write that records each run outside the small disk; the first run fills the disk after its effect. */
const postNote = defineTool({
  name: "post_note",
  description: "Posts a note.",
  category: "general",
  effect: "external-write",
  approval: "policy",
  overrideReason: "runs without parking, so each run can be counted",
  input: z.object({ text: z.string() }),
  run({ text }, context) {
    appendFileSync(executions, `${context.idempotencyKey}\n`);
    if (text === "fill") fillDisk();
    return `posted ${text}`;
  },
});

const skip = mountSmallDisk();
if (skip && process.env.CI === "true") throw new Error(`CI must run the full-disk test: ${skip}`);

describe.skipIf(skip !== undefined)(`seam on a full disk${skip ? ` (skipped: ${skip})` : ""}`, () => {
  let stores: SqliteStores;
  afterAll(() => {
    stores?.close();
    try {
      execFileSync("umount", [small]);
    } catch {
      // already gone
    }
    rmSync(root, { recursive: true, force: true });
  });
  beforeAll(() => {
    appendFileSync(executions, "");
    stores = openSqliteStores(join(small, "state.db"));
  });

  const seamOver = (audit: AuditFailureMode, over: SqliteStores) =>
    new Seam({
      registry: new ToolRegistry([postNote]).view(),
      stores: over,
      approvalPolicy: { decide: () => ({ decision: "allow", reason: "test" }) },
      onAuditFailure: audit,
    });
  const call = (seam: Seam, key: string, text: string) =>
    seam.call(
      createExecutionContext({
        tenantId: "t",
        principalId: "p",
        runId: "r",
        toolCallId: key,
        idempotencyKey: key,
      }),
      "post_note",
      { text },
    );

  it("reports what ran as it ran, refuses what could not start as retryable, and runs nothing twice once space returns", async () => {
    const seam = seamOver("refuse", stores);
    // The tool runs, then the disk is full: its result cannot be stored, and it is still answered as it ran.
    expect(await call(seam, "a", "fill")).toEqual({ ok: true, content: "posted fill" });
    // While the disk is full nothing new starts: refused as a passing condition, with its own message.
    for (const [key, text] of [
      ["b", "second"],
      ["a", "fill"],
    ] as const) {
      const refused = await call(seam, key, text);
      expect(refused, key).toMatchObject({ ok: false, error: { retryable: true } });
      expect(JSON.stringify(refused)).toMatch(/disk is full|audit trail cannot be written|still running/);
    }
    expect(ran("a")).toBe(1);
    expect(ran("b")).toBe(0);

    rmSync(filler);
    // The kept result and the kept audit events reach the store within a few offers.
    await expect
      .poll(async () => (await stores.idempotency.get({ tenantId: "t", key: "a" }))?.status, {
        timeout: 5_000,
      })
      .toBe("completed");
    expect(await call(seam, "a", "fill")).toEqual({ ok: true, content: "posted fill" });
    expect(await call(seam, "b", "second")).toEqual({ ok: true, content: "posted second" });
    expect(ran("a")).toBe(1);
    expect(ran("b")).toBe(1);
    // Every call is in the trail, those recorded while the disk was full included, oldest first.
    const events = (await stores.audit.list({ tenantId: "t", limit: 100 })).reverse();
    expect(events.map((event) => [event.idempotencyKey, event.outcome])).toEqual([
      ["a", "ok"],
      ["b", expect.stringMatching(/internal|in_progress/)],
      ["a", expect.stringMatching(/internal|in_progress/)],
      ["a", "replayed"],
      ["b", "ok"],
    ]);
    expect(stores.database.pragma("integrity_check", { simple: true })).toBe("ok");
  });

  it("while only the audit trail is full, refuses calls that change data, or runs them with an alert when told to", async () => {
    const elsewhere = mkdtempSync(join(tmpdir(), "toolreg-state-"));
    const state = openSqliteStores(join(elsewhere, "state.db"));
    const trail = { ...state, audit: stores.audit };
    try {
      const refusing = seamOver("refuse", trail);
      const alerting = seamOver("alert", trail);
      expect(await call(refusing, "c", "third")).toMatchObject({ ok: true });
      fillDisk();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(stores.audit.failure()).toBeDefined();
      expect(await call(refusing, "d", "fourth")).toMatchObject({
        ok: false,
        error: { code: "internal", retryable: true, details: { audit: "unavailable" } },
      });
      expect(ran("d")).toBe(0);
      expect(await call(alerting, "e", "fifth")).toEqual({ ok: true, content: "posted fifth" });
      rmSync(filler);
      expect(await call(refusing, "d", "fourth")).toEqual({ ok: true, content: "posted fourth" });
      const events = await stores.audit.list({ tenantId: "t", limit: 100 });
      expect(events.map((event) => event.idempotencyKey)).toEqual(expect.arrayContaining(["c", "e", "d"]));
    } finally {
      state.close();
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
