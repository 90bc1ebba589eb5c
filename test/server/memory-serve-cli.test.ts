/**
 * Principal memory end to end, as a user reaches it: `toolreg serve` with no configuration (on its SQLite
 * file, and on PostgreSQL), keys made by `toolreg keys create` for two people of one tenant, and the HTTP
 * invoke route. Ada saves a note; her colleague Bob can neither find nor forget it; Ada finds it, its text
 * fenced as untrusted and carrying no citation, in a later run.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { dropSchema, freshSchema, POSTGRES_URL } from "../support/postgres-schema.js";
import { createKey, invokeAs, type ServeProcess, startServe } from "../support/serve-process.js";
import { postgresAvailable } from "../support/sql.js";

const postgres = await postgresAvailable("memory through toolreg serve");

let served: ServeProcess | undefined;
let cwd: string;
const schemas: string[] = [];
afterEach(async () => {
  served?.child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
  for (const schema of schemas.splice(0)) await dropSchema(schema);
});

interface MemoryEnvelope {
  ok: boolean;
  content?: string;
  data?: { id?: string; memories?: { id: string; text: string }[] };
  provenance?: { source: string; trusted: boolean };
  error?: { code: string; message: string };
}

const stores = [
  { name: "its SQLite file", env: () => ({}) },
  ...(postgres
    ? [
        {
          name: "PostgreSQL",
          env: () => {
            const schema = freshSchema();
            schemas.push(schema);
            return { TOOLREG_DB: `${POSTGRES_URL}?schema=${schema}` };
          },
        },
      ]
    : []),
];

describe.each(stores)("the memory tools through toolreg serve on $name", ({ env: storeEnv }) => {
  it("keeps a user's memory invisible to a colleague in the same tenant", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-memory-serve-"));
    const env = storeEnv();
    served = await startServe(cwd, { env });
    const { url } = served;
    const [ada, bob] = [await createKey(cwd, "acme", "ada", env), await createKey(cwd, "acme", "bob", env)];
    const invoke = async (key: string, run: string, tool: string, input: unknown) => {
      const { status, envelope } = await invokeAs<MemoryEnvelope>(url, key, run, tool, input);
      // A refusal answers its code's status (412 for precondition_failed) with the envelope as the body.
      expect(status).toBe(envelope.ok ? 200 : 412);
      return envelope;
    };

    const saved = await invoke(ada, "monday", "memory_save", {
      text: "Invoices for the Paris office go to Marta, never to the shared inbox",
      tags: ["billing"],
    });
    expect(saved).toMatchObject({ ok: true, data: { id: expect.stringMatching(/^mem_/) } });
    const id = saved.data?.id as string;

    // Bob, in the same tenant, finds nothing with the very words, and cannot forget it by its id.
    expect(
      await invoke(bob, "monday", "memory_search", { query: "Paris office invoices Marta" }),
    ).toMatchObject({
      ok: true,
      content: 'No memory matches "Paris office invoices Marta".',
      data: { memories: [] },
    });
    expect(await invoke(bob, "monday", "memory_forget", { id })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed" },
    });

    // Ada, in a later run, finds it: fenced as untrusted text, with no citation.
    const found = await invoke(ada, "tuesday", "memory_search", { query: "where do Paris invoices go" });
    expect(found).toMatchObject({
      ok: true,
      provenance: { source: "memory_search: saved by an agent", trusted: false },
      data: {
        memories: [{ id, text: "Invoices for the Paris office go to Marta, never to the shared inbox" }],
      },
    });
    expect(found).not.toHaveProperty("citations");
    expect(found.content).toMatch(
      /^<untrusted-content id="[0-9a-f]{16}" source="memory_search: saved by an agent">\n/,
    );
    expect(found.content).toContain("Invoices for the Paris office go to Marta");
    expect(found.content).toMatch(/<\/untrusted-content id="[0-9a-f]{16}">$/);

    expect(await invoke(ada, "tuesday", "memory_forget", { id })).toMatchObject({ ok: true });
    expect((await invoke(ada, "tuesday", "memory_search", { query: "Paris" })).data?.memories).toEqual([]);
  });
});
