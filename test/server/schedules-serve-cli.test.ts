/**
 * Schedules end to end, as a user reaches them: `toolreg serve` (on its SQLite file, and on PostgreSQL) with the floor lowered to
 * a second (TOOLREG_SCHEDULE_MIN_INTERVAL_MS), keys made by `toolreg keys create`, and the HTTP invoke route.
 * Ada schedules memory_save every second; it fires at least twice, each run audited under her in the
 * schedule's run; she cancels it and it fires no more. Bob's schedule does not fire once his key is
 * revoked: the refusal is audited and `toolreg schedules list` shows it paused.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { runToolreg } from "../cli/run-cli.js";
import { dropSchema, freshSchema, POSTGRES_URL } from "../support/postgres-schema.js";
import { createKey, invokeAs, type ServeProcess, startServe } from "../support/serve-process.js";
import { postgresAvailable } from "../support/sql.js";

const postgres = await postgresAvailable("schedules through toolreg serve");

let served: ServeProcess | undefined;
let cwd: string;
let ENV: Record<string, string> = {};
const schemas: string[] = [];
afterEach(async () => {
  served?.child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

const FLOOR = { TOOLREG_SCHEDULE_MIN_INTERVAL_MS: "1000" };
const stores = [
  { name: "its SQLite file", env: () => FLOOR },
  ...(postgres
    ? [
        {
          name: "PostgreSQL",
          env: () => {
            const schema = freshSchema();
            schemas.push(schema);
            return { ...FLOOR, TOOLREG_DB: `${POSTGRES_URL}?schema=${schema}` };
          },
        },
      ]
    : []),
];

interface Envelope {
  ok: boolean;
  content?: string;
  data?: { id?: string; status?: string };
  error?: { code: string; message: string };
}

interface ListedSchedule {
  id: string;
  principalId: string;
  status: string;
  fireCount: number;
  lastOutcome?: string;
}

interface AuditRow {
  actor: string;
  tool: string;
  runId: string;
  toolCallId: string;
  outcome: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function schedules(): Promise<ListedSchedule[]> {
  const listed = await runToolreg(["schedules", "list", "--tenant", "acme", "--json"], cwd, ENV);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as ListedSchedule[];
}

async function scheduleOf(id: string): Promise<ListedSchedule> {
  const found = (await schedules()).find((schedule) => schedule.id === id);
  if (!found) throw new Error(`schedule ${id} is not listed`);
  return found;
}

async function until(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(250);
  }
}

async function audit(tool: string): Promise<AuditRow[]> {
  const listed = await runToolreg(
    ["audit", "--tenant", "acme", "--tool", tool, "--limit", "100", "--json"],
    cwd,
    ENV,
  );
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as AuditRow[];
}

describe.each(stores)("schedules through toolreg serve on $name", ({ env }) => {
  it("fires a scheduled call every second as its maker until cancelled; a revoked key's schedule does not fire", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-schedules-serve-"));
    ENV = env();
    served = await startServe(cwd, { env: ENV });
    const { url } = served;
    const [ada, bob] = [await createKey(cwd, "acme", "ada", ENV), await createKey(cwd, "acme", "bob", ENV)];
    const every = { tool: "memory_save", input: { text: "heartbeat" }, cron: "* * * * * *" };

    const made = await invokeAs<Envelope>(url, ada, "plan-1", "schedule_create", every);
    expect(made, JSON.stringify(made.envelope)).toMatchObject({
      status: 200,
      envelope: { ok: true, data: { status: "active" } },
    });
    const id = made.envelope.data?.id as string;
    // A time zone that does not exist is refused, naming what to give.
    const nowhere = await invokeAs<Envelope>(url, ada, "plan-1", "schedule_create", {
      ...every,
      timeZone: "Nowhere/Land",
    });
    expect(nowhere.envelope).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("IANA") },
    });

    await until(async () => (await scheduleOf(id)).fireCount >= 2, "two runs of Ada's schedule");
    const runs = (await audit("memory_save")).filter((event) => event.runId === `schedule:${id}`);
    expect(runs.length).toBeGreaterThanOrEqual(2);
    for (const run of runs) {
      expect(run).toMatchObject({
        actor: "ada",
        outcome: "ok",
        toolCallId: expect.stringMatching(new RegExp(`^schedule:${id}:\\d+$`)),
      });
    }
    expect(new Set(runs.map((run) => run.toolCallId)).size).toBe(runs.length);

    // Over the API each key sees its own schedules, and cannot cancel another's.
    const listedAs = async (key: string) => {
      const response = await fetch(`${url}/api/v1/schedules`, {
        headers: { authorization: `Bearer ${key}` },
      });
      const body = (await response.json()) as { schedules: ListedSchedule[]; truncated: boolean };
      // Under the page of 200: the whole list, and said so.
      expect(body.truncated).toBe(false);
      return body.schedules.map((schedule) => schedule.id);
    };
    expect(await listedAs(ada)).toEqual([id]);
    const described = (await (
      await fetch(`${url}/api/v1/openapi.json`, { headers: { authorization: `Bearer ${ada}` } })
    ).json()) as { paths: Record<string, Record<string, unknown>> };
    expect(Object.keys(described.paths["/api/v1/schedules"] ?? {})).toEqual(["get"]);
    expect(Object.keys(described.paths["/api/v1/schedules/{id}"] ?? {})).toEqual(["delete"]);
    expect(await listedAs(bob)).toEqual([]);
    const deleted = await fetch(`${url}/api/v1/schedules/${id}`, {
      method: "DELETE",
      headers: { authorization: `Bearer ${bob}` },
    });
    expect(deleted.status).toBe(404);

    // Bob cannot cancel Ada's schedule with the tool either; Ada can.
    const bobs = await invokeAs<Envelope>(url, bob, "plan-2", "schedule_cancel", { id });
    expect(bobs.envelope).toMatchObject({ ok: false, error: { code: "precondition_failed" } });
    const cancelled = await invokeAs<Envelope>(url, ada, "plan-1", "schedule_cancel", { id });
    expect(cancelled.envelope).toMatchObject({ ok: true, data: { id, status: "cancelled" } });
    // A run under way when it was cancelled still finishes; after that, nothing.
    await sleep(1_500);
    const settled = await scheduleOf(id);
    expect(settled.status).toBe("cancelled");
    await sleep(2_500);
    expect((await scheduleOf(id)).fireCount).toBe(settled.fireCount);
    expect((await audit("memory_save")).filter((event) => event.runId === `schedule:${id}`).length).toBe(
      settled.fireCount,
    );

    // Bob schedules a call a few seconds ahead, then loses his key before it fires.
    const at = new Date(Date.now() + 3_000).toISOString();
    const his = await invokeAs<Envelope>(url, bob, "plan-2", "schedule_create", {
      tool: "memory_save",
      input: { text: "later" },
      at,
    });
    expect(his.envelope).toMatchObject({ ok: true });
    const hisId = his.envelope.data?.id as string;
    const keyId = /^trk_([^_]+)_/.exec(bob)?.[1] as string;
    const revoked = await runToolreg(["keys", "revoke", keyId], cwd, ENV);
    expect(revoked.code, revoked.stderr).toBe(0);
    await until(async () => (await scheduleOf(hisId)).status !== "active", "Bob's schedule to fire");
    expect(await scheduleOf(hisId)).toMatchObject({
      status: "paused",
      fireCount: 1,
      lastOutcome: `paused: the key ${keyId} that made it is revoked or expired`,
    });
    expect((await audit("memory_save")).filter((event) => event.runId === `schedule:${hisId}`)).toMatchObject(
      [{ actor: "bob", outcome: "not_authorized" }],
    );

    // The operator cancels it from the command line.
    const cancelledByOperator = await runToolreg(
      ["schedules", "cancel", hisId, "--tenant", "acme"],
      cwd,
      ENV,
    );
    expect(cancelledByOperator).toMatchObject({ code: 0, stdout: `cancelled ${hisId}\n` });
    const missing = await runToolreg(["schedules", "cancel", hisId, "--tenant", "other"], cwd, ENV);
    expect(missing.code).toBe(1);
  }, 60_000);
});
