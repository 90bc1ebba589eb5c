/**
 * @module Two registry servers of one deployment (one PostgreSQL schema, one NATS subject prefix) in this
 * process: approvals, revocations and a prompt schedule's occurrences recorded on one reach the other, revisions go out as `tool.update`,
 * and what arrives on the bus in the wrong shape is ignored.
 */
import { connect } from "nats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  type Instance,
  recordingLogger,
  startInstance,
  watchEvents,
} from "../../test/support/bus-instance.js";
import { freshPrefix, NATS_URL, natsAvailable } from "../../test/support/nats.js";
import { dropSchema, freshSchema } from "../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../test/support/sql.js";
import { defineTool } from "../declaration/define-tool.js";
import { tellRevoked } from "./instance-events.js";
import { KEY_CACHE_TTL_MS } from "./key-cache.js";

const reachable = (await postgresAvailable("instance events")) && (await natsAvailable("instance events"));

const schema = freshSchema();
const prefix = freshPrefix();
let a: Instance;
let b: Instance;
const logB = recordingLogger();
const keys = { aliceOperator: "", agentA: "", bobOperator: "" };

beforeAll(async () => {
  if (!reachable) return;
  a = await startInstance({ schema, prefix, logger: recordingLogger() });
  b = await startInstance({ schema, prefix, logger: logB });
  const key = async (tenantId: string, principalId: string, operator = false) =>
    (await a.server.auth.createKey({ tenantId, principalId, operator })).key;
  keys.aliceOperator = await key("tenant-a", "alice", true);
  keys.agentA = await key("tenant-a", "agent-a");
  keys.bobOperator = await key("tenant-b", "bob", true);
});

afterAll(async () => {
  if (!reachable) return;
  await a?.stop();
  await b?.stop();
  await dropSchema(schema);
});

/** A key of its own for a test that revokes it. */
async function agentKey(principalId: string) {
  const { key, record } = await a.server.auth.createKey({ tenantId: "tenant-b", principalId });
  return { key, id: record.id };
}

const status = async (instance: Instance, key: string) => (await instance.call("/manifest.json", key)).status;

const pollTool = (name: string) =>
  defineTool({
    name,
    description: "Counts the votes of a poll.",
    category: "general",
    effect: "read",
    input: z.object({}),
    run: () => "0",
  });

describe.runIf(reachable)("instances on one bus", () => {
  it("an approval parked on A reaches B's operators of that tenant, and one resolved on B reaches A", async () => {
    const aliceOnB = await watchEvents(b, keys.aliceOperator);
    const bobOnB = await watchEvents(b, keys.bobOperator);
    const aliceOnA = await watchEvents(a, keys.aliceOperator);
    try {
      const parked = await a.call("/api/v1/tools/send_email/invoke", keys.agentA, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: "ian" }),
      });
      expect(parked.status).toBe(202);
      const { approvalId } = ((await parked.json()) as { error: { details: { approvalId: string } } }).error
        .details;
      const requested = { event: "approval.requested", data: expect.objectContaining({ approvalId }) };
      await expect
        .poll(() => aliceOnB.heard(), { timeout: 2_000 })
        .toEqual([expect.objectContaining(requested)]);

      const approved = await b.call(`/api/v1/approvals/${approvalId}/approve`, keys.aliceOperator, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      });
      expect(approved.status).toBe(200);
      expect(await approved.json()).toMatchObject({ approval: { status: "executed" }, result: { ok: true } });
      const resolved = { event: "approval.resolved", data: expect.objectContaining({ approvalId }) };
      await expect
        .poll(() => aliceOnA.heard(), { timeout: 2_000 })
        .toEqual(
          expect.arrayContaining([expect.objectContaining(requested), expect.objectContaining(resolved)]),
        );

      // A revision B announces after both: once tenant b's operator hears it, B's stream has passed the approvals.
      b.registry.install(pollTool("tally_votes"));
      await expect.poll(() => bobOnB.heard().length, { timeout: 2_000 }).toBeGreaterThan(0);
      expect(bobOnB.heard().map((event) => event.event)).toEqual(["tool.update"]);
    } finally {
      await Promise.all([aliceOnB.close(), bobOnB.close(), aliceOnA.close()]);
    }
  });

  it("a key revoked through A and told on the bus is refused by B at once, though B had it cached", async () => {
    const { key, id } = await agentKey("agent-revoked-on-bus");
    expect(await status(b, key)).toBe(200);
    const cachedAt = Date.now();
    expect(await a.server.auth.revokeKey(id)).toBe(true);
    tellRevoked(a.bus as NonNullable<Instance["bus"]>, id);
    await expect.poll(() => status(b, key), { timeout: 500, interval: 20 }).toBe(401);
    // Sooner than the cache's second: B forgot the key because it was told, not because its memory ran out.
    expect(Date.now() - cachedAt).toBeLessThan(KEY_CACHE_TTL_MS);
  });

  it("without the bus an instance honours a revoked key until its cache's second is over", async () => {
    const c = await startInstance({ schema, logger: recordingLogger() });
    try {
      const { key, id } = await agentKey("agent-revoked-off-bus");
      // Taken before the request that caches the key, so the second counted from it is never longer than C's.
      const cachedAt = Date.now();
      expect(await status(c, key)).toBe(200);
      await a.server.auth.revokeKey(id);
      tellRevoked(a.bus as NonNullable<Instance["bus"]>, id);
      expect(await status(c, key)).toBe(200);
      await expect.poll(() => status(c, key), { timeout: KEY_CACHE_TTL_MS + 500, interval: 50 }).toBe(401);
      expect(Date.now() - cachedAt).toBeGreaterThanOrEqual(KEY_CACHE_TTL_MS);
    } finally {
      await c.stop();
    }
  });

  it("ignores events of the wrong shape on the bus, and goes on hearing and serving", async () => {
    const aliceOnB = await watchEvents(b, keys.aliceOperator);
    const raw = await connect({ servers: NATS_URL });
    try {
      const valid = {
        type: "approval.requested",
        tenantId: "tenant-a",
        approvalId: "apr_heard_after_the_wrong_ones",
        tool: "send_email",
        outcome: "pending",
        actor: "agent-a",
        at: Date.now(),
      };
      const wrong = [
        { type: "approval.requested", tenantId: "tenant-a", approvalId: "apr_missing_fields" },
        { ...valid, approvalId: "apr_extra_field", html: "<script>" },
        { ...valid, approvalId: "apr_bad_type", type: "approval.forged" },
        { ...valid, approvalId: "apr_negative_time", at: -1 },
        "approval.requested",
      ];
      const warnedBefore = logB.warnings.length;
      const publish = (subject: string, event: unknown) =>
        raw.publish(subject, new TextEncoder().encode(JSON.stringify(event)));
      for (const event of wrong) publish(`${prefix}.approvals`, event);
      publish(`${prefix}.keys`, { type: "key.revoked" });
      // After the wrong ones, on the same connection: once it is heard, they have been heard and ignored.
      publish(`${prefix}.approvals`, valid);
      await raw.flush();
      await expect.poll(() => aliceOnB.heard().length, { timeout: 2_000 }).toBeGreaterThan(0);
      expect(aliceOnB.heard()).toEqual([{ event: "approval.requested", data: valid }]);
      expect(logB.warnings.slice(warnedBefore)).toEqual([
        ...wrong.map(() => ({ topic: "approvals" })),
        { topic: "keys" },
      ]);
      expect(await status(b, keys.agentA)).toBe(200);
    } finally {
      await raw.close();
      await aliceOnB.close();
    }
  });

  it("announces a revision of A's registry as tool.update under the deployment's prefix", async () => {
    const raw = await connect({ servers: NATS_URL });
    try {
      const heard: unknown[] = [];
      raw.subscribe(`${prefix}.tool.update`, {
        callback: (_error, message) => heard.push(JSON.parse(new TextDecoder().decode(message.data))),
      });
      await raw.flush();
      a.registry.install(pollTool("count_ballots"));
      await expect.poll(() => heard, { timeout: 2_000 }).toHaveLength(1);
      expect(heard).toEqual([
        {
          type: "tool.update",
          change: "install",
          tool: "count_ballots",
          version: a.registry.get("count_ballots")?.version,
          revision: a.registry.revision,
        },
      ]);
    } finally {
      await raw.close();
    }
  });

  it("a prompt schedule's occurrence reaches its maker's stream on both instances once, whichever fired it", async () => {
    const onA = await watchEvents(a, keys.agentA);
    const onB = await watchEvents(b, keys.agentA);
    // A colleague of the same tenant, though an operator, is not told of another's prompt.
    const operatorOnB = await watchEvents(b, keys.aliceOperator);
    const prompts = (watched: typeof onA) =>
      watched.heard().filter((event) => event.event === "schedule.prompt");
    try {
      const schedules = a.server.deps.schedules;
      if (!schedules) throw new Error("the registry server lends no schedule store");
      const schedule = await schedules.create(
        { tenantId: "tenant-a", principalId: "agent-a" },
        {
          action: { kind: "prompt", prompt: "Tally the votes" },
          timing: { kind: "once", at: Date.now() + 1_500 },
          now: Date.now(),
        },
      );
      const heard = {
        event: "schedule.prompt",
        data: expect.objectContaining({ scheduleId: schedule.id, prompt: "Tally the votes" }),
      };
      await expect.poll(() => prompts(onA), { timeout: 6_000 }).toEqual([expect.objectContaining(heard)]);
      await expect.poll(() => prompts(onB), { timeout: 2_000 }).toEqual([expect.objectContaining(heard)]);
      expect(prompts(operatorOnB)).toEqual([]);
    } finally {
      await Promise.all([onA.close(), onB.close(), operatorOnB.close()]);
    }
  });
});
