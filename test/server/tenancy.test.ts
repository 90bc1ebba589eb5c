import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

/** Every authenticated endpoint, with what a request to it looks like. */
const ENDPOINTS: { method: string; path: (approvalId: string) => string; body?: unknown }[] = [
  { method: "GET", path: () => "/manifest.json" },
  { method: "GET", path: () => "/manifest.json?schema=toolreg/2" },
  { method: "GET", path: () => "/api/v1/tools" },
  { method: "GET", path: () => "/api/v1/tools/calculate" },
  { method: "POST", path: () => "/api/v1/tools/calculate/invoke", body: { expression: "1+1" } },
  { method: "GET", path: () => "/api/v1/approvals" },
  { method: "GET", path: (id) => `/api/v1/approvals/${id}` },
  { method: "POST", path: (id) => `/api/v1/approvals/${id}/approve`, body: {} },
  { method: "POST", path: (id) => `/api/v1/approvals/${id}/deny`, body: {} },
  { method: "GET", path: () => "/api/v1/audit" },
  { method: "GET", path: () => "/api/v1/events" },
  { method: "GET", path: () => "/api/v1/openapi.json" },
  { method: "GET", path: () => "/api/v1/session" },
];

async function park(key: string, to: string): Promise<string> {
  const parked = await f.call("/api/v1/tools/send_email/invoke", { ...jsonBody({ to }), key });
  expect(parked.status).toBe(202);
  const envelope = (await parked.json()) as { error: { code: string; details: { approvalId: string } } };
  expect(envelope.error.code).toBe("approval_required");
  return envelope.error.details.approvalId;
}

describe("the registry server: who sees what", () => {
  it("refuses every endpoint to an unauthenticated client, and to a wrong key, with a problem", async () => {
    const approvalId = await park(f.keys.agentA, "carol");
    for (const endpoint of ENDPOINTS) {
      for (const key of [undefined, "trk_nothing_here", "not-a-key"]) {
        const response = await f.call(endpoint.path(approvalId), {
          method: endpoint.method,
          key,
          ...(endpoint.body
            ? { body: JSON.stringify(endpoint.body), headers: { "content-type": "application/json" } }
            : {}),
        });
        expect(response.status, `${endpoint.method} ${endpoint.path(approvalId)} with ${key}`).toBe(401);
        expect(response.headers.get("content-type")).toBe("application/problem+json");
        expect(response.headers.get("www-authenticate")).toContain("Bearer");
        expect(await response.json()).toMatchObject({ status: 401, code: "unauthenticated" });
      }
    }
    expect(f.sendEmail.calls).toHaveLength(0);
    expect((await f.call("/healthz")).status).toBe(200);
    expect((await f.call("/readyz")).status).toBe(200);
  });

  it("keeps tenant b's tools, approvals and audit rows out of tenant a's reach, and the other way round", async () => {
    const names = async (key: string) =>
      ((await (await f.call("/manifest.json", { key })).json()) as { tools: { name: string }[] }).tools.map(
        (t) => t.name,
      );
    expect(await names(f.keys.agentA)).not.toContain("read_ledger");
    expect(await names(f.keys.agentB)).toContain("read_ledger");
    const discovered = (await (
      await f.call("/api/v1/tools?category=finance", { key: f.keys.agentA })
    ).json()) as {
      tools: unknown[];
    };
    expect(discovered.tools).toEqual([]);
    expect(await (await f.call("/api/v1/tools/read_ledger", { key: f.keys.agentA })).json()).toMatchObject({
      status: 404,
      code: "unknown_tool",
      detail: 'no tool named "read_ledger" is available to you.',
    });
    const invoked = await f.call("/api/v1/tools/read_ledger/invoke", { ...jsonBody({}), key: f.keys.agentA });
    expect(invoked.status).toBe(404);
    expect(await invoked.json()).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
    expect(
      (await f.call("/api/v1/tools/read_ledger/invoke", { ...jsonBody({}), key: f.keys.agentB })).status,
    ).toBe(200);

    const approvalOfB = await park(f.keys.agentB, "dave");
    const approvalOfA = await park(f.keys.agentA, "erin");
    for (const key of [f.keys.aliceOperator, f.keys.agentA]) {
      expect((await f.call(`/api/v1/approvals/${approvalOfB}`, { key })).status).toBe(404);
      expect(
        (await f.call(`/api/v1/approvals/${approvalOfB}/approve`, { ...jsonBody({}), key })).status,
      ).toBe(404);
      expect((await f.call(`/api/v1/approvals/${approvalOfB}/deny`, { ...jsonBody({}), key })).status).toBe(
        404,
      );
      const listed = (await (await f.call("/api/v1/approvals", { key })).json()) as {
        approvals: { id: string }[];
      };
      expect(listed.approvals.map((approval) => approval.id)).not.toContain(approvalOfB);
    }
    expect((await f.call(`/api/v1/approvals/${approvalOfA}`, { key: f.keys.bobOperator })).status).toBe(404);
    expect(
      (await f.call(`/api/v1/approvals/${approvalOfA}/approve`, { ...jsonBody({}), key: f.keys.bobOperator }))
        .status,
    ).toBe(404);

    const audit = async (key: string) =>
      (
        (await (await f.call("/api/v1/audit?limit=500", { key })).json()) as {
          events: { tenantId: string; tool: string }[];
        }
      ).events;
    const auditA = await audit(f.keys.aliceOperator);
    const auditB = await audit(f.keys.bobOperator);
    expect(auditA.length).toBeGreaterThan(0);
    expect(auditA.every((event) => event.tenantId === "tenant-a")).toBe(true);
    expect(auditB.every((event) => event.tenantId === "tenant-b")).toBe(true);
    expect(auditB.some((event) => event.tool === "read_ledger")).toBe(true);
    // An agent key may not read the trail at all.
    expect((await f.call("/api/v1/audit", { key: f.keys.agentA })).status).toBe(403);
    expect(f.sendEmail.calls).toHaveLength(0);
  });

  it("lets an agent see only its own approvals, decide none, and never decide its own", async () => {
    const id = await park(f.keys.aliceOperator, "frank");
    expect(
      await (
        await f.call(`/api/v1/approvals/${id}/approve`, { ...jsonBody({}), key: f.keys.aliceOperator })
      ).json(),
    ).toMatchObject({ status: 403, code: "self_approval" });
    expect((await f.call(`/api/v1/approvals/${id}`, { key: f.keys.agentA })).status).toBe(404);
    const own = await park(f.keys.agentA, "gina");
    expect((await f.call(`/api/v1/approvals/${own}`, { key: f.keys.agentA })).status).toBe(200);
    expect(
      await (
        await f.call(`/api/v1/approvals/${own}/approve`, { ...jsonBody({}), key: f.keys.agentA })
      ).json(),
    ).toMatchObject({ status: 403, code: "not_an_approver" });
    expect(f.sendEmail.calls).toHaveLength(0);
  });
});
