/**
 * @module /api/v1/kb over real HTTP on 127.0.0.1, on a real SQLite file: who may add, list and remove, and
 * the refusals (no key, a body with both or neither of text and url, bad subjects, an unknown source to
 * re-index, a forged cursor, a server with no knowledge base) with what each names; an embedder that fails
 * answers 503 with the source to resume.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HashedBagOfWordsEmbedding } from "../../catalog/search/embedding-provider.js";
import { createEgressClient } from "../../egress/egress-client.js";
import { createKnowledgeIntake } from "../../knowledge/intake.js";
import { ToolRegistry } from "../../registry/registry.js";
import { silentLogger } from "../../seam/context.js";
import { type Listening, listen } from "../listen.js";
import { openRegistryServer, type RegistryServer } from "../registry-server.js";

let directory: string;
let server: RegistryServer;
let listening: Listening;
let embedderDown = false;
const keys: Record<string, string> = {};
const hashed = new HashedBagOfWordsEmbedding(64);
// The default policy: public addresses only.
const egress = createEgressClient();

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-kb-routes-"));
  server = openRegistryServer({
    registry: new ToolRegistry([]),
    store: join(directory, "toolreg.db"),
    logger: silentLogger,
    knowledge: (base) =>
      createKnowledgeIntake({
        knowledge: base,
        egress,
        embedder: {
          model: "hashed-64",
          embed: (texts) => {
            if (embedderDown) throw new Error("the embedding endpoint is down");
            return hashed.embed(texts);
          },
        },
      }),
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  keys.ops = (await server.auth.createKey({ tenantId: "acme", principalId: "ops", operator: true })).key;
  keys.writer = (
    await server.auth.createKey({ tenantId: "acme", principalId: "wes", scopes: ["kb:write"] })
  ).key;
  keys.ada = (await server.auth.createKey({ tenantId: "acme", principalId: "ada", scopes: ["finance"] })).key;
  keys.other = (await server.auth.createKey({ tenantId: "globex", principalId: "ops", operator: true })).key;
});

afterAll(async () => {
  await listening?.stop(1_000);
  await server?.close();
  await egress.close();
  rmSync(directory, { recursive: true, force: true });
});

const api = (method: string, path: string, key: string | undefined, body?: unknown) =>
  fetch(`${listening.url}${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });

describe("/api/v1/kb", () => {
  it("adds for a kb:write key, lists to readers only, and removes within the tenant", async () => {
    const added = await api("POST", "/api/v1/kb", keys.writer, {
      text: "Budget reviews happen in March.",
      subjects: ["scope:finance"],
    });
    expect(added.status).toBe(201);
    const { source } = (await added.json()) as { source: { id: string; title: string } };
    expect(source.title).toBe("Budget reviews happen in March.");
    const list = async (key: string) =>
      ((await (await api("GET", "/api/v1/kb", key)).json()) as { sources: { id: string }[] }).sources.map(
        (s) => s.id,
      );
    expect(await list(keys.ada as string)).toEqual([source.id]);
    expect(await list(keys.ops as string)).toEqual([source.id]);
    expect(await list(keys.other as string)).toEqual([]);
    expect((await api("DELETE", `/api/v1/kb/${source.id}`, keys.other)).status).toBe(404);
    expect((await api("DELETE", `/api/v1/kb/${source.id}`, keys.ada)).status).toBe(403);
    expect((await api("DELETE", `/api/v1/kb/${source.id}`, keys.writer)).status).toBe(200);
    expect(await list(keys.ops as string)).toEqual([]);
  });

  it("refuses a request it cannot act on, saying why", async () => {
    expect((await api("GET", "/api/v1/kb", undefined)).status).toBe(401);
    for (const [body, code] of [
      [{ text: "a", url: "https://example.com/" }, "invalid_body"],
      [{ title: "nothing to add" }, "invalid_body"],
      [{ text: "a", subjects: [] }, "invalid_body"],
      [{ text: "a", subjects: ["bad\u0000subject"] }, "invalid_body"],
      [{ url: "file:///etc/passwd" }, "invalid_body"],
      [{ text: "a", tenantId: "globex" }, "invalid_body"],
      [{ text: "a", id: "ks_0000000000000000" }, "unreadable_source"],
      [{ url: "http://10.0.0.1/" }, "egress_refused"],
    ] as const) {
      const response = await api("POST", "/api/v1/kb", keys.ops, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json(), JSON.stringify(body)).toMatchObject({ code });
    }
    const forged = await api("GET", "/api/v1/kb?after=nonsense", keys.ops);
    expect(forged.status).toBe(400);
  });

  it("answers an embedder failure with 503 naming the source to resume, and resumes it", async () => {
    embedderDown = true;
    const failed = await api("POST", "/api/v1/kb", keys.ops, { text: "Parking is on level two." });
    embedderDown = false;
    expect(failed.status).toBe(503);
    const problem = (await failed.json()) as { code: string; sourceId: string; detail: string };
    expect(problem).toMatchObject({ code: "ingestion_interrupted", sourceId: expect.stringMatching(/^ks_/) });
    expect(problem.detail).toContain("the embedding endpoint is down");
    const resumed = await api("POST", "/api/v1/kb", keys.ops, {
      text: "Parking is on level two.",
      id: problem.sourceId,
    });
    expect(resumed.status).toBe(200);
    expect(await resumed.json()).toMatchObject({
      source: { id: problem.sourceId, status: "ready", chunkCount: 1 },
    });
  });
});

it("says a server without a knowledge base has none", async () => {
  const bare = openRegistryServer({
    registry: new ToolRegistry([]),
    store: join(directory, "bare.db"),
    logger: silentLogger,
  });
  const up = await listen(bare, { port: 0, host: "127.0.0.1" });
  try {
    const key = (await bare.auth.createKey({ tenantId: "acme", principalId: "ops", operator: true })).key;
    const response = await fetch(`${up.url}/api/v1/kb`, { headers: { authorization: `Bearer ${key}` } });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: "no_knowledge_base" });
  } finally {
    await up.stop(1_000);
    await bare.close();
  }
});
