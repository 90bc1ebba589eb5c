import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

let f: Fixture;
afterEach(() => f.close());

describe("the console session", () => {
  it("turns a one-time login token into an HttpOnly, SameSite=Strict session whose changes need the CSRF token", async () => {
    f = await startFixture();
    const operator = (await f.server.auth.listKeys({ tenantId: "tenant-a" })).find((key) => key.operator);
    const token = await f.server.auth.createLoginToken(operator?.id as string);
    const login = await fetch(`${f.url}/login?token=${token}`, { redirect: "manual" });
    expect(login.status).toBe(303);
    expect(login.headers.get("location")).toBe("/");
    const cookie = login.headers.get("set-cookie") as string;
    expect(cookie).toMatch(/toolreg_session=[^;]+;/);
    expect(cookie).toContain("HttpOnly");
    expect(cookie).toContain("SameSite=Strict");
    const again = await fetch(`${f.url}/login?token=${token}`, { redirect: "manual" });
    expect(again.status).toBe(401);

    const session = cookie.split(";")[0] as string;
    const me = (await (await fetch(`${f.url}/api/v1/session`, { headers: { cookie: session } })).json()) as {
      principalId: string;
      csrfToken: string;
    };
    expect(me.principalId).toBe("alice");
    expect(me.csrfToken).toMatch(/^[\w-]{20,}$/);

    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "joe" }),
      key: f.keys.agentA,
    });
    const id = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    const forged = await fetch(`${f.url}/api/v1/approvals/${id}/approve`, {
      ...jsonBody({}),
      headers: { cookie: session, "content-type": "application/json" },
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ code: "csrf_token_missing" });
    expect(f.sendEmail.calls).toHaveLength(0);
    const approved = await fetch(`${f.url}/api/v1/approvals/${id}/approve`, {
      method: "POST",
      headers: { cookie: session, "content-type": "application/json", "x-csrf-token": me.csrfToken },
      body: "{}",
    });
    expect(approved.status).toBe(200);
    expect(f.sendEmail.calls).toHaveLength(1);

    await fetch(`${f.url}/api/v1/logout`, {
      method: "POST",
      headers: { cookie: session, "x-csrf-token": me.csrfToken },
    });
    expect((await fetch(`${f.url}/api/v1/session`, { headers: { cookie: session } })).status).toBe(401);
  });

  it("an approved call of a principal whose key was revoked meanwhile is refused, not run", async () => {
    f = await startFixture();
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "kim" }),
      key: f.keys.agentA,
    });
    const id = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    const agentKey = (await f.server.auth.listKeys({ tenantId: "tenant-a" })).find(
      (key) => key.principalId === "agent-a",
    );
    await f.server.auth.revokeKey(agentKey?.id as string);
    const decided = await f.call(`/api/v1/approvals/${id}/approve`, {
      ...jsonBody({}),
      key: f.keys.aliceOperator,
    });
    expect(await decided.json()).toMatchObject({
      approval: { status: "refused" },
      result: { ok: false, error: { code: "not_authorized" } },
    });
    expect(f.sendEmail.calls).toHaveLength(0);
  });
});

describe("graceful shutdown", () => {
  it("lets a running call finish, refuses new ones, and closes", async () => {
    f = await startFixture();
    const running = f.call("/api/v1/tools/slow_report/invoke", { ...jsonBody({}), key: f.keys.agentA });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const stopping = f.listening.stop(5_000);
    const late = await f
      .call("/api/v1/tools/calculate/invoke", { ...jsonBody({ expression: "1" }), key: f.keys.agentA })
      .then(
        (response) => response.status,
        () => "refused",
      );
    expect([503, "refused"]).toContain(late);
    expect(await (await running).json()).toMatchObject({ ok: true, content: "done slowly" });
    expect(await stopping).toEqual({ drained: true, interrupted: 0 });
  });

  it("records a write still running past the drain as interrupted, and leaves the store whole", async () => {
    f = await startFixture();
    const headers = { "content-type": "application/json", "idempotency-key": "shutdown-1" };
    const running = f
      .call("/api/v1/tools/slow_write/invoke", { method: "POST", headers, body: "{}", key: f.keys.agentA })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(await f.listening.stop(100)).toEqual({ drained: false, interrupted: 1 });
    await running;
    const database = new Database(f.storePath, { readonly: true });
    try {
      expect(database.pragma("integrity_check", { simple: true })).toBe("ok");
      const claim = database
        .prepare("SELECT status, claimed_by FROM idempotency WHERE key = 'shutdown-1'")
        .get();
      // Never left in flight: unknown, so a retry is told so and does not run it again.
      expect(claim).toEqual({ status: "unknown", claimed_by: "agent-a" });
      const interrupt = database
        .prepare("SELECT outcome, message FROM audit WHERE kind = 'tool-call-interrupt'")
        .get() as { outcome: string; message: string };
      expect(interrupt).toMatchObject({
        outcome: "interrupted",
        message: expect.stringContaining("slow_write"),
      });
    } finally {
      database.close();
    }
  });
});

describe("a client that hangs up", () => {
  it("decides nothing: the write runs to its end, and a retry with the key gets its real outcome", async () => {
    f = await startFixture();
    const send = (signal?: AbortSignal) =>
      f.call("/api/v1/tools/slow_write/invoke", {
        method: "POST",
        headers: { "content-type": "application/json", "idempotency-key": "hang-up-1" },
        body: "{}",
        key: f.keys.agentA,
        ...(signal ? { signal } : {}),
      });
    const controller = new AbortController();
    const first = send(controller.signal).catch(() => "hung up");
    await new Promise((resolve) => setTimeout(resolve, 100));
    controller.abort();
    expect(await first).toBe("hung up");
    const meanwhile = await send();
    expect(meanwhile.status).toBe(409);
    expect(await meanwhile.json()).toMatchObject({ ok: false, error: { code: "in_progress" } });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = await send();
    expect(after.status).toBe(200);
    expect(await after.json()).toEqual({ ok: true, content: "written" });
    expect(f.slowWrite.calls).toHaveLength(1);
  });
});

describe("housekeeping", () => {
  it("sweeps expired approvals out of the inbox while the server runs", async () => {
    f = await startFixture({ approvalTtlMs: 200, sweepIntervalMs: 50 });
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "lee" }),
      key: f.keys.agentA,
    });
    const id = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    const status = async () =>
      (
        (await (await f.call(`/api/v1/approvals/${id}`, { key: f.keys.aliceOperator })).json()) as {
          status: string;
        }
      ).status;
    expect(await status()).toBe("pending");
    const until = Date.now() + 5_000;
    while ((await status()) === "pending" && Date.now() < until)
      await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await status()).toBe("expired");
  });
});
