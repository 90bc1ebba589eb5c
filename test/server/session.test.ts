import { afterEach, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

let f: Fixture;
afterEach(() => f.close());

describe("the console session", () => {
  it("turns a one-time login token into an HttpOnly, SameSite=Strict session whose changes need the CSRF token", async () => {
    f = await startFixture();
    const operator = f.server.auth.listKeys({ tenantId: "tenant-a" }).find((key) => key.operator);
    const token = f.server.auth.createLoginToken(operator?.id as string);
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
    const agentKey = f.server.auth
      .listKeys({ tenantId: "tenant-a" })
      .find((key) => key.principalId === "agent-a");
    f.server.auth.revokeKey(agentKey?.id as string);
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
    expect(await stopping).toEqual({ drained: true });
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
