/** @module `toolreg schedules list|cancel` over the in-process schedule store, and the floor read from the environment. */
import { describe, expect, it } from "vitest";
import { createMemoryScheduleStore } from "../../stores/memory/schedules.js";
import { UsageError } from "../cli-io.js";
import { scheduleOptionsFrom } from "../cli-stores.js";
import { cancelSchedule, listSchedules } from "./schedules.js";

function io() {
  const out = { stdout: "", stderr: "" };
  return {
    out,
    io: {
      stdout: (text: string) => {
        out.stdout += text;
      },
      stderr: (text: string) => {
        out.stderr += text;
      },
      cwd: "/",
      env: {},
    },
  };
}

const soon = () => Date.now() + 3_600_000;

describe("toolreg schedules", () => {
  it("lists the tenant's schedules, whoever made them, and cancels one of them only", async () => {
    const store = createMemoryScheduleStore();
    const call = { kind: "tool" as const, tool: "calculate", input: { expression: "1+1" } };
    const ada = await store.create(
      { tenantId: "acme", principalId: "ada" },
      { action: call, timing: { kind: "once", at: soon() }, now: Date.now() },
    );
    await store.create(
      { tenantId: "acme", principalId: "bob" },
      {
        action: { kind: "prompt", prompt: "hi" },
        timing: { kind: "cron", expression: "0 9 * * *", timeZone: "UTC" },
        now: Date.now(),
      },
    );
    const elsewhere = await store.create(
      { tenantId: "other", principalId: "ada" },
      { action: call, timing: { kind: "once", at: soon() }, now: Date.now() },
    );

    const listed = io();
    expect(await listSchedules(store, "acme", {}, listed.io)).toBe(0);
    expect(listed.out.stdout).toContain(ada.id);
    expect(listed.out.stdout).toMatch(/bob\s+active\s+\(prompt\)\s+0 9 \* \* \* \(UTC\)/);
    expect(listed.out.stdout).not.toContain(elsewhere.id);

    const refused = io();
    expect(await cancelSchedule(store, "acme", elsewhere.id, refused.io)).toBe(1);
    expect(refused.out.stderr).toBe(`error: no schedule ${elsewhere.id} in tenant acme\n`);
    expect((await store.get({ tenantId: "other" }, elsewhere.id))?.status).toBe("active");

    const cancelled = io();
    expect(await cancelSchedule(store, "acme", ada.id, cancelled.io)).toBe(0);
    expect(await cancelSchedule(store, "acme", ada.id, cancelled.io)).toBe(0);
    expect(cancelled.out.stdout).toBe(`cancelled ${ada.id}\n${ada.id} was already cancelled\n`);
    const json = io();
    await listSchedules(store, "acme", { status: "cancelled", json: true }, json.io);
    expect((JSON.parse(json.out.stdout) as { id: string }[]).map((schedule) => schedule.id)).toEqual([
      ada.id,
    ]);
    await expect(listSchedules(store, "acme", { status: "sleeping" }, io().io)).rejects.toThrow(UsageError);
  });

  it("reads the floor from TOOLREG_SCHEDULE_MIN_INTERVAL_MS, refusing less than a second", () => {
    expect(scheduleOptionsFrom({})).toEqual({});
    expect(scheduleOptionsFrom({ TOOLREG_SCHEDULE_MIN_INTERVAL_MS: "1000" })).toEqual({
      minIntervalMs: 1000,
    });
    for (const bad of ["999", "1.5e3x", "-1", "soon"])
      expect(() => scheduleOptionsFrom({ TOOLREG_SCHEDULE_MIN_INTERVAL_MS: bad })).toThrow(UsageError);
  });
  it("says when the listing stopped at the store's page of 200 rather than passing it off as all", async () => {
    const store = createMemoryScheduleStore();
    const owner = { tenantId: "acme", principalId: "ada" };
    for (let made = 0; made < 200; made += 1) {
      const schedule = await store.create(owner, {
        action: { kind: "prompt", prompt: `note ${made}` },
        timing: { kind: "once", at: soon() },
        now: Date.now(),
      });
      await store.cancel(owner, schedule.id);
    }
    const full = io();
    expect(await listSchedules(store, "acme", {}, full.io)).toBe(0);
    expect(full.out.stderr).toContain("the newest 200 are shown; there may be more");
    const some = io();
    expect(await listSchedules(store, "acme", { status: "active" }, some.io)).toBe(0);
    expect(some.out.stderr).toBe("");
  });
});
