/**
 * @module /api/v1/attachments over real HTTP on 127.0.0.1, on a real SQLite file and the files beside it: an
 * upload with and without a run, the list of each caller's own, removal, and the refusals (no key, not
 * multipart, no file part, a bad run id or name, a forged cursor, an unknown id) with what each names.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolRegistry } from "../../registry/registry.js";
import { silentLogger } from "../../seam/context.js";
import { type Listening, listen } from "../listen.js";
import { openRegistryServer, type RegistryServer } from "../registry-server.js";

let directory: string;
let server: RegistryServer;
let listening: Listening;
const keys: Record<string, string> = {};

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), "toolreg-attachments-routes-"));
  server = openRegistryServer({
    registry: new ToolRegistry([]),
    store: join(directory, "toolreg.db"),
    logger: silentLogger,
  });
  listening = await listen(server, { port: 0, host: "127.0.0.1" });
  for (const [tenantId, principalId] of [
    ["acme", "ada"],
    ["acme", "bob"],
  ] as const)
    keys[principalId] = (await server.auth.createKey({ tenantId, principalId })).key;
});

afterAll(async () => {
  await listening?.stop(1_000);
  await server?.close();
  rmSync(directory, { recursive: true, force: true });
});

const api = (path: string, key: string | undefined, init: RequestInit = {}) =>
  fetch(`${listening.url}${path}`, {
    ...init,
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...(init.headers as Record<string, string>),
    },
  });

function form(fields: Record<string, string | { name: string; type?: string; body: string }>): FormData {
  const body = new FormData();
  for (const [field, value] of Object.entries(fields)) {
    if (typeof value === "string") body.set(field, value);
    else body.set(field, new Blob([value.body], value.type ? { type: value.type } : {}), value.name);
  }
  return body;
}

const upload = async (
  key: string | undefined,
  body: FormData | string,
  headers: Record<string, string> = {},
) => {
  const response = await api("/api/v1/attachments", key, { method: "POST", body, headers });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe("/api/v1/attachments", () => {
  it("uploads for the key's principal, lists each caller's own, and removes one", async () => {
    const wide = await upload(keys.ada, form({ file: { name: "notes.txt", body: "hello" } }));
    expect(wide).toMatchObject({
      status: 201,
      body: { name: "notes.txt", mediaType: "text/plain", size: 5, principalId: "ada" },
    });
    expect(wide.body).not.toHaveProperty("runId");
    // The media type is the part's when it states one, the extension's otherwise.
    const scoped = await upload(
      keys.ada,
      form({ file: { name: "data.bin", type: "application/json", body: "{}" }, runId: "run-1" }),
    );
    expect(scoped).toMatchObject({ status: 201, body: { mediaType: "application/json", runId: "run-1" } });

    const list = async (key: string, query = "") =>
      ((await (await api(`/api/v1/attachments${query}`, key)).json()) as { attachments: { id: string }[] })
        .attachments;
    expect((await list(keys.ada as string)).map((a) => a.id)).toEqual([wide.body.id]);
    expect((await list(keys.ada as string, "?runId=run-1")).map((a) => a.id)).toEqual([
      scoped.body.id,
      wide.body.id,
    ]);
    expect(await list(keys.bob as string, "?runId=run-1")).toEqual([]);

    const remove = (key: string, id: unknown, query = "") =>
      api(`/api/v1/attachments/${String(id)}${query}`, key, { method: "DELETE" });
    expect((await remove(keys.bob as string, wide.body.id)).status).toBe(404);
    // A run's attachment is removed within its run.
    expect((await remove(keys.ada as string, scoped.body.id)).status).toBe(404);
    expect((await remove(keys.ada as string, scoped.body.id, "?runId=run-1")).status).toBe(204);
    expect((await remove(keys.ada as string, wide.body.id)).status).toBe(204);
    expect(await list(keys.ada as string, "?runId=run-1")).toEqual([]);
  });

  it("refuses what it cannot keep, saying why", async () => {
    expect((await upload(undefined, form({ file: { name: "a.txt", body: "x" } }))).status).toBe(401);
    expect(
      await upload(keys.ada, JSON.stringify({ file: "x" }), { "content-type": "application/json" }),
    ).toMatchObject({ status: 415, body: { code: "unsupported_media_type" } });
    expect(await upload(keys.ada, form({ runId: "run-1" }))).toMatchObject({
      status: 422,
      body: { code: "file_required" },
    });
    expect(
      await upload(keys.ada, form({ file: { name: "a.txt", body: "x" }, runId: "run 1; drop" })),
    ).toMatchObject({ status: 422, body: { code: "invalid_body" } });
    expect(await upload(keys.ada, form({ file: { name: "..", body: "x" } }))).toMatchObject({
      status: 422,
      body: { code: "bad_attachment_name", limit: 200 },
    });
    expect(
      await upload(keys.ada, "--x\r\nbroken", { "content-type": "multipart/form-data; boundary=x" }),
    ).toMatchObject({ status: 400, body: { code: "malformed_form" } });
    const forged = await api("/api/v1/attachments?after=forged", keys.ada);
    expect(forged.status).toBe(400);
    expect((await api("/api/v1/attachments?limit=0", keys.ada)).status).toBe(400);
    expect((await api("/api/v1/attachments", keys.ada)).status).toBe(200);
    // Nothing refused was kept.
    expect(await (await api("/api/v1/attachments?runId=run-1", keys.ada)).json()).toEqual({
      attachments: [],
    });
  });
});
