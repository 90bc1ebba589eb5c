import { connect } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "./server-fixture.js";

let f: Fixture;
beforeAll(async () => {
  f = await startFixture({ bodyTimeoutMs: 500 });
});
afterAll(() => f.close());

describe("the registry server's API", () => {
  it("serves the manifest once per revision, with an ETag, gzip, and the old toolreg/2 shape", async () => {
    const first = await f.call("/manifest.json", { key: f.keys.agentA });
    const etag = first.headers.get("etag") as string;
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    const manifest = (await first.json()) as { schema: string; tools: Record<string, unknown>[] };
    expect(manifest.schema).toBe("toolreg/3");
    expect(manifest.tools.find((tool) => tool.name === "send_email")).toMatchObject({
      effect: "external-write",
      approval: "always",
      idempotency: true,
      category: "communication",
      input_schema: { type: "object" },
    });
    const again = await f.call("/manifest.json", { key: f.keys.agentA, headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);
    const raw = await fetch(`${f.url}/manifest.json`, {
      headers: { authorization: `Bearer ${f.keys.agentA}`, "accept-encoding": "gzip" },
    });
    expect(raw.headers.get("etag")).toBe(etag);
    const legacy = (await (
      await f.call("/manifest.json?schema=toolreg/2", { key: f.keys.agentB })
    ).json()) as {
      tools: Record<string, unknown>[];
    };
    expect(Object.keys(legacy.tools[0] as object).sort()).toEqual(
      [
        "cost",
        "deprecated_by",
        "description",
        "idempotent",
        "inputs",
        "name",
        "outputs",
        "runtime",
        "version",
      ].sort(),
    );
    expect((await f.call("/manifest.json?schema=toolreg/9", { key: f.keys.agentA })).status).toBe(400);
    // The gzip body is the same JSON.
    const { request } = await import("node:http");
    const gz = await new Promise<Buffer>((resolve) => {
      request(
        `${f.url}/manifest.json`,
        { headers: { authorization: `Bearer ${f.keys.agentA}`, "accept-encoding": "gzip" } },
        (res) => {
          expect(res.headers["content-encoding"]).toBe("gzip");
          const chunks: Buffer[] = [];
          res.on("data", (chunk) => chunks.push(chunk));
          res.on("end", () => resolve(Buffer.concat(chunks)));
        },
      ).end();
    });
    expect(JSON.parse(gunzipSync(gz).toString())).toEqual(manifest);
  });

  it("discovers by runtime, category, effect and search, and refuses a bad query", async () => {
    const names = async (query: string) =>
      (
        (await (await f.call(`/api/v1/tools${query}`, { key: f.keys.agentB })).json()) as {
          tools: { name: string }[];
        }
      ).tools.map((tool) => tool.name);
    expect(await names("?runtime=2.3.0")).toContain("read_ledger");
    expect(await names("?runtime=3.1.0")).not.toContain("read_ledger");
    expect(await names("?runtime=3.1.0")).toContain("calculate");
    expect(await names("?effect=external-write")).toEqual(["send_email", "slow_write"]);
    expect((await names("?q=arithmetic expression"))[0]).toBe("calculate");
    const bad = await f.call("/api/v1/tools?runtime=two", { key: f.keys.agentB });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({
      code: "invalid_query",
      detail: expect.stringContaining("semver"),
    });
  });

  it("invokes through the seam: a read runs, a write parks (202), an approver runs it once, the requester polls it", async () => {
    const read = await f.call("/api/v1/tools/calculate/invoke", {
      ...jsonBody({ expression: "6*7" }),
      key: f.keys.agentA,
    });
    expect(read.status).toBe(200);
    expect(read.headers.get("x-content-type-options")).toBe("nosniff");
    expect(await read.json()).toMatchObject({ ok: true, content: "42" });
    const invalid = await f.call("/api/v1/tools/calculate/invoke", {
      ...jsonBody({ expression: 7 }),
      key: f.keys.agentA,
    });
    expect(invalid.status).toBe(422);

    const headers = { "content-type": "application/json", "idempotency-key": "order-7" };
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      method: "POST",
      headers,
      body: JSON.stringify({ to: "hal" }),
      key: f.keys.agentA,
    });
    expect(parked.status).toBe(202);
    const approvalId = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    const decided = await f.call(`/api/v1/approvals/${approvalId}/approve`, {
      ...jsonBody({ note: "fine" }),
      key: f.keys.aliceOperator,
    });
    expect(decided.status).toBe(200);
    expect(await decided.json()).toMatchObject({
      approval: { status: "executed", decidedBy: "alice", note: "fine" },
      result: { ok: true, content: "sent" },
    });
    expect(f.sendEmail.calls).toHaveLength(1);
    expect(
      await (await f.call(`/api/v1/approvals/${approvalId}`, { key: f.keys.agentA })).json(),
    ).toMatchObject({
      status: "executed",
      result: { ok: true },
    });
    // The same Idempotency-Key again replays instead of sending twice.
    const retried = await f.call("/api/v1/tools/send_email/invoke", {
      method: "POST",
      headers,
      body: JSON.stringify({ to: "hal" }),
      key: f.keys.agentA,
    });
    expect(await retried.json()).toMatchObject({ ok: true, content: "sent" });
    expect(f.sendEmail.calls).toHaveLength(1);
    expect(
      await (
        await f.call(`/api/v1/approvals/${approvalId}/deny`, { ...jsonBody({}), key: f.keys.aliceOperator })
      ).json(),
    ).toMatchObject({ status: 409, code: "already_decided" });
  });

  it("retries an interrupted call only at an approver's word, once; and decides nothing it cannot run", async () => {
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "ivy" }),
      key: f.keys.agentA,
    });
    const id = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    const { approvals } = f.server.deps.stores;
    // Approved, then its process was lost mid-run: what the sweep leaves.
    await approvals.decide({ tenantId: "tenant-a", id, decision: "approved", by: "alice", at: Date.now() });
    await approvals.interrupt({ tenantId: "tenant-a", id, interruption: { reason: "lost", at: Date.now() } });
    const sent = f.sendEmail.calls.length;
    const listed = (await (
      await f.call("/api/v1/approvals?status=interrupted", { key: f.keys.aliceOperator })
    ).json()) as { approvals: { id: string }[] };
    expect(listed.approvals.map((record) => record.id)).toEqual([id]);
    const byAgent = await f.call(`/api/v1/approvals/${id}/retry`, { ...jsonBody({}), key: f.keys.agentA });
    expect(byAgent.status).toBe(403);
    const retried = await f.call(`/api/v1/approvals/${id}/retry`, {
      ...jsonBody({ note: "checked: nothing was sent" }),
      key: f.keys.aliceOperator,
    });
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({
      approval: { status: "executed", retriedBy: "alice" },
      result: { ok: true, content: "sent" },
    });
    const again = await f.call(`/api/v1/approvals/${id}/retry`, {
      ...jsonBody({}),
      key: f.keys.aliceOperator,
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "not_interrupted" });
    expect(f.sendEmail.calls).toHaveLength(sent + 1);

    // An approval for a tool this server does not serve is left pending, with the reason.
    await approvals.create({
      tenantId: "tenant-a",
      id: "elsewhere-1",
      toolName: "post_tweet",
      toolVersion: "1.0.0",
      effect: "external-write",
      definitionHash: "h",
      input: {},
      description: "post_tweet",
      requestedBy: "agent-a",
      runId: "r",
      toolCallId: "c",
      idempotencyKey: "elsewhere-1",
      fingerprint: "fp",
      createdAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    const unserved = await f.call("/api/v1/approvals/elsewhere-1/approve", {
      ...jsonBody({}),
      key: f.keys.aliceOperator,
    });
    expect(unserved.status).toBe(409);
    expect(await unserved.json()).toMatchObject({
      code: "not_served",
      detail: expect.stringContaining("post_tweet, which this process does not serve"),
    });
    expect(await approvals.get({ tenantId: "tenant-a", id: "elsewhere-1" })).toMatchObject({
      status: "pending",
    });
  });

  it("pages the audit trail with a cursor", async () => {
    const seen: string[] = [];
    let next: string | null = null;
    for (let page = 0; page < 50; page++) {
      const response = await f.call(`/api/v1/audit?limit=2${next ? `&before=${next}` : ""}`, {
        key: f.keys.aliceOperator,
      });
      const body = (await response.json()) as { events: { id: string }[]; next: string | null };
      seen.push(...body.events.map((event) => event.id));
      next = body.next;
      if (!next) break;
    }
    const all = (await (await f.call("/api/v1/audit?limit=500", { key: f.keys.aliceOperator })).json()) as {
      events: { id: string }[];
    };
    expect(seen).toEqual(all.events.map((event) => event.id));
    expect((await f.call("/api/v1/audit?before=garbage", { key: f.keys.aliceOperator })).status).toBe(400);
  });

  it("answers bad requests with problems and never falls over", async () => {
    const malformed = await f.call("/api/v1/tools/calculate/invoke", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"expression": "1+1",}',
      key: f.keys.agentA,
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toMatchObject({ code: "malformed_json", position: expect.any(Number) });
    const huge = await f.call("/api/v1/tools/calculate/invoke", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ expression: "1".repeat(2 * 1024 * 1024) }),
      key: f.keys.agentA,
    });
    expect(huge.status).toBe(413);
    expect(await huge.json()).toMatchObject({ code: "body_too_large" });
    const wrongMethod = await f.call("/api/v1/tools/calculate/invoke", { method: "GET", key: f.keys.agentA });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get("allow")).toContain("POST");
    expect(await wrongMethod.json()).toMatchObject({ code: "method_not_allowed" });
    const missing = await f.call("/api/v2/nothing", { key: f.keys.agentA });
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("application/problem+json");
    const text = await f.call("/api/v1/tools/calculate/invoke", {
      method: "POST",
      headers: { "content-type": "text/plain" },
      body: "1+1",
      key: f.keys.agentA,
    });
    expect(text.status).toBe(415);

    // A chunked body (no declared length) is read under the same cap.
    const chunked = async (body: string) => {
      const { request } = await import("node:http");
      return new Promise<{ status: number; body: string }>((resolve) => {
        const req = request(
          `${f.url}/api/v1/tools/calculate/invoke`,
          {
            method: "POST",
            headers: {
              authorization: `Bearer ${f.keys.agentA}`,
              "content-type": "application/json",
              "transfer-encoding": "chunked",
            },
          },
          (res) => {
            let text = "";
            res.on("data", (chunk) => {
              text += chunk;
            });
            res.on("end", () => resolve({ status: res.statusCode as number, body: text }));
          },
        );
        req.on("error", () => resolve({ status: 0, body: "" }));
        for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.slice(at, at + 64 * 1024));
        req.end();
      });
    };
    expect(await chunked('{"expression":"2+3"}')).toMatchObject({
      status: 200,
      body: expect.stringContaining('"content":"5"'),
    });
    const bigChunked = await chunked(JSON.stringify({ expression: "1".repeat(2 * 1024 * 1024) }));
    expect([413, 0]).toContain(bigChunked.status);
    if (bigChunked.status === 413) expect(bigChunked.body).toContain("body_too_large");

    // A body that trickles in is cut off with a 408 problem, and the server goes on serving.
    const slow = await new Promise<string>((resolve) => {
      const socket = connect(Number(new URL(f.url).port), "127.0.0.1", () => {
        socket.write(
          `POST /api/v1/tools/calculate/invoke HTTP/1.1\r\nhost: x\r\nauthorization: Bearer ${f.keys.agentA}\r\ncontent-type: application/json\r\ncontent-length: 100\r\n\r\n{"expr`,
        );
      });
      let received = "";
      socket.on("data", (chunk) => {
        received += chunk.toString();
      });
      socket.on("close", () => resolve(received));
      setTimeout(() => socket.destroy(), 5_000);
    });
    expect(slow).toMatch(/^HTTP\/1\.1 408/);
    expect(slow).toContain('"code":"body_timeout"');
    expect((await f.call("/healthz")).status).toBe(200);
  });

  it("publishes approvals and registry revisions over SSE, to the right tenant only", async () => {
    const open = (key: string) => {
      const controller = new AbortController();
      const events: string[] = [];
      const done = fetch(`${f.url}/api/v1/events`, {
        headers: { authorization: `Bearer ${key}` },
        signal: controller.signal,
      })
        .then(async (response) => {
          const reader = (response.body as ReadableStream<Uint8Array>).getReader();
          const decoder = new TextDecoder();
          for (;;) {
            const { value, done: ended } = await reader.read();
            if (ended) break;
            events.push(decoder.decode(value));
          }
        })
        .catch(() => {});
      return { events, close: () => controller.abort(), done };
    };
    const operatorA = open(f.keys.aliceOperator);
    const operatorB = open(f.keys.bobOperator);
    await waitFor(
      () =>
        operatorA.events.join("").includes("event: ready") &&
        operatorB.events.join("").includes("event: ready"),
    );
    const parked = await f.call("/api/v1/tools/send_email/invoke", {
      ...jsonBody({ to: "ian" }),
      key: f.keys.agentA,
    });
    const approvalId = ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details
      .approvalId;
    await waitFor(() => operatorA.events.join("").includes("approval.requested"));
    await f.call(`/api/v1/approvals/${approvalId}/approve`, { ...jsonBody({}), key: f.keys.aliceOperator });
    await waitFor(() => operatorA.events.join("").includes("approval.resolved"));
    expect(operatorA.events.join("")).toContain(approvalId);
    f.server.deps.registry.remove("slow_report");
    await waitFor(() => operatorB.events.join("").includes("tool.update"));
    expect(operatorB.events.join("")).not.toContain(approvalId);
    operatorA.close();
    operatorB.close();
    await Promise.all([operatorA.done, operatorB.done]);
  });

  it("describes itself in OpenAPI 3.1 from the schemas the routes validate with", async () => {
    const document = (await (await f.call("/api/v1/openapi.json", { key: f.keys.agentA })).json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining([
        "/manifest.json",
        "/api/v1/tools/{name}/invoke",
        "/api/v1/approvals/{id}/approve",
        "/api/v1/approvals/{id}/retry",
        "/api/v1/audit",
      ]),
    );
    expect(document.paths["/api/v1/tools"]?.get?.parameters?.map((parameter) => parameter.name)).toEqual(
      expect.arrayContaining(["runtime", "category", "effect", "q"]),
    );
  });
});

async function waitFor(condition: () => boolean, timeoutMs = 5_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > until) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
