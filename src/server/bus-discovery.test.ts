/**
 * @module `tool.query` over a real NATS against served registries: a key learns the manifest `GET
 * /manifest.json` would give it, for its runtime; a bad key or a malformed query learns only that; two
 * instances on one prefix answer each query once.
 */
import { connect, createInbox } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Instance, recordingLogger, startInstance } from "../../test/support/bus-instance.js";
import { freshPrefix, NATS_URL, natsAvailable } from "../../test/support/nats.js";
import { dropSchema, freshSchema } from "../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../test/support/sql.js";
import { NatsEventBus } from "../stores/nats/event-bus.js";
import type { ToolQuery, ToolReply } from "./bus-discovery.js";
import { tellRevoked } from "./instance-events.js";
import type { ManifestDocument } from "./manifest.js";

const reachable = (await postgresAvailable("bus discovery")) && (await natsAvailable("bus discovery"));

const schema = freshSchema();
const prefix = freshPrefix();
let served: Instance;
let asker: NatsEventBus;
const keys = { agentA: "", agentB: "", auditorB: "" };

beforeAll(async () => {
  if (!reachable) return;
  served = await startInstance({ schema, prefix, logger: recordingLogger() });
  asker = await NatsEventBus.open({ url: NATS_URL, subjectPrefix: prefix, logger: recordingLogger() });
  const key = async (tenantId: string, principalId: string, scopes: string[] = []) =>
    (await served.server.auth.createKey({ tenantId, principalId, scopes })).key;
  keys.agentA = await key("tenant-a", "agent-a");
  keys.agentB = await key("tenant-b", "agent-b");
  keys.auditorB = await key("tenant-b", "auditor-b", ["payroll:read"]);
});

afterAll(async () => {
  if (!reachable) return;
  await asker?.close();
  await served?.stop();
  await dropSchema(schema);
});

const ask = (query: unknown) => asker.request("tool.query", query, 2_000) as Promise<ToolReply>;

const manifestOf = async (reply: ToolReply) => {
  if (!reply.ok) throw new Error(`tool.query was refused: ${reply.error.message}`);
  return reply.manifest;
};

const names = (manifest: ManifestDocument) => manifest.tools.map((tool) => tool.name);

/** What `GET /manifest.json` gives the same key, for the same query string. */
async function overHttp(key: string, query = ""): Promise<ManifestDocument> {
  const response = await served.call(`/manifest.json${query}`, key);
  expect(response.status).toBe(200);
  return (await response.json()) as ManifestDocument;
}

const refused = (code: "invalid_query" | "unauthenticated") => ({
  ok: false,
  error: { code, message: expect.any(String) },
});

describe.runIf(reachable)("tool.query on the bus", () => {
  it("answers each key with the manifest its grant sees, the same as GET /manifest.json", async () => {
    const seen = {
      agentA: await manifestOf(await ask({ key: keys.agentA } satisfies ToolQuery)),
      agentB: await manifestOf(await ask({ key: keys.agentB })),
      auditorB: await manifestOf(await ask({ key: keys.auditorB })),
    };
    // Tenant a has no finance tools; in tenant b, the payroll needs its scope.
    expect(names(seen.agentA)).toEqual(["calculate", "send_email"]);
    expect(names(seen.agentB)).toEqual(["calculate", "send_email", "read_ledger"]);
    expect(names(seen.auditorB)).toEqual(["calculate", "send_email", "read_ledger", "audit_payroll"]);
    for (const who of ["agentA", "agentB", "auditorB"] as const) {
      expect(seen[who]).toEqual(await overHttp(keys[who]));
    }
  });

  it("filters by the host's runtime as /manifest.json?runtime= does, and keeps the schema asked for", async () => {
    const within = await manifestOf(await ask({ key: keys.agentB, runtime: "2.3.0" }));
    const past = await manifestOf(await ask({ key: keys.agentB, runtime: "3.1.0" }));
    expect(names(within)).toContain("read_ledger");
    expect(names(past)).not.toContain("read_ledger");
    expect(names(past)).toContain("calculate");
    expect(within).toEqual(await overHttp(keys.agentB, "?runtime=2.3.0"));
    expect(past).toEqual(await overHttp(keys.agentB, "?runtime=3.1.0"));
    const older = await manifestOf(await ask({ key: keys.agentB, runtime: "3.1.0", schema: "toolreg/2" }));
    expect(older).toEqual(await overHttp(keys.agentB, "?runtime=3.1.0&schema=toolreg/2"));
    expect(older).not.toEqual(past);
  });

  it("tells an unknown or revoked key that, and nothing more", async () => {
    expect(await ask({ key: "trk_nothing_here" })).toEqual(refused("unauthenticated"));
    expect(await ask({ key: "" })).toEqual(refused("unauthenticated"));
    const { key, record } = await served.server.auth.createKey({ tenantId: "tenant-b", principalId: "gone" });
    expect((await ask({ key })).ok).toBe(true);
    await served.server.auth.revokeKey(record.id);
    tellRevoked(asker, record.id);
    await expect.poll(() => ask({ key }), { timeout: 500, interval: 20 }).toEqual(refused("unauthenticated"));
  });

  it("answers a malformed query with invalid_query and goes on answering", async () => {
    const malformed: unknown[] = [
      "trk_a_string",
      null,
      [keys.agentB],
      {},
      { key: 42 },
      { key: keys.agentB, tenant: "tenant-a" },
      { key: keys.agentB, runtime: "not-semver" },
      { key: keys.agentB, runtime: "2".repeat(65) },
      { key: keys.agentB, schema: "toolreg/99" },
      { key: `trk_${"x".repeat(300)}` },
    ];
    for (const query of malformed)
      expect(await ask(query), JSON.stringify(query)).toEqual(refused("invalid_query"));
    // Bytes that are not JSON at all are refused by the bus itself, before the query is read.
    const raw = await connect({ servers: NATS_URL });
    try {
      const reply = await raw.request(`${prefix}.tool.query`, new TextEncoder().encode("{not json"), {
        timeout: 2_000,
      });
      expect(JSON.parse(new TextDecoder().decode(reply.data))).toMatchObject({
        ok: false,
        error: { code: "invalid_query" },
      });
    } finally {
      await raw.close();
    }
    expect((await ask({ key: keys.agentB })).ok).toBe(true);
  });

  it("two instances on one prefix answer each query once", async () => {
    const second = await startInstance({ schema, prefix, logger: recordingLogger() });
    const raw = await connect({ servers: NATS_URL });
    try {
      const inbox = createInbox();
      const replies: ToolReply[] = [];
      raw.subscribe(inbox, {
        callback: (_error, message) => replies.push(JSON.parse(new TextDecoder().decode(message.data))),
      });
      const queries = 20;
      for (let n = 0; n < queries; n++) {
        raw.publish(`${prefix}.tool.query`, new TextEncoder().encode(JSON.stringify({ key: keys.agentB })), {
          reply: inbox,
        });
      }
      await raw.flush();
      await expect.poll(() => replies.length, { timeout: 2_000 }).toBe(queries);
      // Long enough for a second answer to any of them to arrive, were there one.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(replies).toHaveLength(queries);
      expect(replies.every((reply) => reply.ok)).toBe(true);
    } finally {
      await raw.close();
      await second.stop();
    }
  });
});
