/**
 * The approvals API answers a parked ask_questions call: the answers are checked against its questions
 * (refused with 422, nothing recorded), recorded once with the answering principal, and the call resumes
 * at once; the asker answers their own questions, a colleague without the decide scope cannot.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry } from "../../src/registry/registry.js";
import { silentLogger } from "../../src/seam/context.js";
import { type Listening, listen } from "../../src/server/listen.js";
import { openRegistryServer } from "../../src/server/registry-server.js";
import { humanTools } from "../../src/tools/human/index.js";

let dir: string;
let listening: Listening;
const keys: Record<string, string> = {};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "toolreg-questions-"));
  const server = openRegistryServer({
    registry: new ToolRegistry(humanTools(undefined)),
    store: join(dir, "toolreg.db"),
    logger: silentLogger,
  });
  keys.ada = (await server.auth.createKey({ tenantId: "acme", principalId: "ada" })).key;
  keys.bob = (await server.auth.createKey({ tenantId: "acme", principalId: "bob" })).key;
  keys.olga = (await server.auth.createKey({ tenantId: "acme", principalId: "olga", operator: true })).key;
  keys.eve = (await server.auth.createKey({ tenantId: "other", principalId: "eve", operator: true })).key;
  listening = await listen(server, { port: 0 });
});
afterAll(async () => {
  await listening.stop(2_000);
  rmSync(dir, { recursive: true, force: true });
});

const post = (path: string, key: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${listening.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

const questions = {
  questions: [
    { id: "size", text: "Which size?", choices: ["S", "M", "L"] },
    { id: "why", text: "Why?", required: false },
  ],
};

async function park(key: string, callId: string, tool = "ask_questions", input: unknown = questions) {
  const parked = await post(`/api/v1/tools/${tool}/invoke`, key, input, {
    "x-toolreg-run-id": "run-1",
    "x-toolreg-tool-call-id": callId,
  });
  expect(parked.status).toBe(202);
  return ((await parked.json()) as { error: { details: { approvalId: string } } }).error.details.approvalId;
}

describe("answering questions over the approvals API", () => {
  it("checks, records once with who answered, and resumes the call, whose replay returns the answers", async () => {
    const id = await park(keys.ada as string, "ask-1");
    const wrong = await post(`/api/v1/approvals/${id}/answer`, keys.ada as string, {
      answers: { size: "XL" },
    });
    expect(wrong.status).toBe(422);
    expect(await wrong.json()).toMatchObject({
      code: "invalid_answers",
      detail: expect.stringMatching(/size: "XL" is not offered; pick from "S", "M", "L"/),
    });
    expect(
      (await post(`/api/v1/approvals/${id}/answer`, keys.ada as string, { size: "M" })).status,
      "answers go under answers",
    ).toBe(422);
    // A colleague with no decide scope sees nothing of another's questions.
    expect((await post(`/api/v1/approvals/${id}/answer`, keys.bob as string, { answers: {} })).status).toBe(
      404,
    );
    expect((await post(`/api/v1/approvals/${id}/answer`, keys.eve as string, { answers: {} })).status).toBe(
      404,
    );

    const answered = await post(`/api/v1/approvals/${id}/answer`, keys.ada as string, {
      answers: { size: "M", why: "fits the box" },
    });
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({
      approval: { status: "executed", decidedBy: "ada", answers: { size: { choices: ["M"] } } },
      result: { ok: true, data: { status: "answered", answeredBy: "ada" } },
    });
    // Answered already: said so, even for answers that would not fit.
    const again = await post(`/api/v1/approvals/${id}/answer`, keys.olga as string, {
      answers: { size: "XL" },
    });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ code: "already_decided" });

    const replay = await post("/api/v1/tools/ask_questions/invoke", keys.ada as string, questions, {
      "x-toolreg-run-id": "run-1",
      "x-toolreg-tool-call-id": "ask-1",
    });
    expect(replay.status).toBe(200);
    expect(await replay.json()).toMatchObject({
      ok: true,
      data: { answers: { size: { choices: ["M"] }, why: { choices: [], text: "fits the box" } } },
    });
  });

  it("lets the asker decline their own questions, but not approve their own plan", async () => {
    const asked = await park(keys.ada as string, "ask-2");
    const declined = await post(`/api/v1/approvals/${asked}/deny`, keys.ada as string, { note: "not now" });
    expect(declined.status).toBe(200);
    const planned = await park(keys.ada as string, "plan-1", "request_approval", {
      plan: "Delete the old drafts",
    });
    const self = await post(`/api/v1/approvals/${planned}/approve`, keys.ada as string, {});
    expect(self.status).toBe(403);
    expect(
      (await post(`/api/v1/approvals/${planned}/answer`, keys.olga as string, { answers: {} })).status,
    ).toBe(422);
    const approved = await post(`/api/v1/approvals/${planned}/approve`, keys.olga as string, { note: "go" });
    expect(await approved.json()).toMatchObject({
      result: { ok: true, data: { decision: "approved", by: "olga", note: "go" } },
    });
  });
});

describe("a question tool that fails checking the answers", () => {
  it("is a 500 naming the tool, not a store to retry; the questions stay open", async () => {
    const [asking] = humanTools(undefined).filter((tool) => tool.name === "ask_questions");
    if (!asking?.asksHuman) throw new Error("ask_questions asks no human");
    const checkAnswers = () => {
      throw new Error("the answer book is missing");
    };
    const failing = { ...asking, asksHuman: { ...asking.asksHuman, checkAnswers } };
    const server = openRegistryServer({
      registry: new ToolRegistry([failing]),
      store: join(dir, "failing.db"),
      logger: silentLogger,
    });
    const key = (await server.auth.createKey({ tenantId: "acme", principalId: "ada" })).key;
    const failingListening = await listen(server, { port: 0 });
    try {
      const parked = await fetch(`${failingListening.url}/api/v1/tools/ask_questions/invoke`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify(questions),
      });
      const { approvalId } = ((await parked.json()) as { error: { details: { approvalId: string } } }).error
        .details;
      const answered = await fetch(`${failingListening.url}/api/v1/approvals/${approvalId}/answer`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: JSON.stringify({ answers: { size: "M" } }),
      });
      expect(answered.status).toBe(500);
      expect(answered.headers.get("retry-after")).toBeNull();
      expect(await answered.json()).toMatchObject({
        code: "internal",
        detail: expect.stringMatching(/ask_questions failed while checking the answers/),
        approval: { status: "pending" },
      });
    } finally {
      await failingListening.stop(2_000);
    }
  });
});
