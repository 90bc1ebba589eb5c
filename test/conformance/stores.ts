/** @module The one conformance suite every store adapter runs: behaviour and refusals, with explicit clocks. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { AuditEvent, ClaimInput, CompleteInput, NewApproval, Stores } from "../../src/ports/stores.js";
import type { Envelope } from "../../src/seam/envelope.js";

export interface StoreFixture {
  stores: Stores;
  /** Drops the stores as a crash would and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<Stores>;
  cleanup(): Promise<void>;
}

const A = "tenant-a";
const B = "tenant-b";
const LEASE = 30_000;
const DAY = 86_400_000;

const okEnvelope: Envelope = {
  ok: true,
  content: "sent",
  data: { id: 7, nested: [1, { deep: "yes" }] },
  provenance: { source: "mail", trusted: false },
};
const errorEnvelope: Envelope = {
  ok: false,
  error: {
    code: "upstream_error",
    message: "mail server said no",
    retryable: false,
    details: { status: 550 },
  },
};

const claimOf = (overrides: Partial<ClaimInput> = {}): ClaimInput => ({
  tenantId: A,
  key: "key-1",
  fingerprint: "fp-1",
  toolName: "mail.send",
  claimId: "claim-1",
  principalId: "agent:alice",
  holder: "host-a:101",
  reclaimable: true,
  now: 1_000,
  leaseMs: LEASE,
  retentionMs: DAY,
  ...overrides,
});

const completeOf = (overrides: Partial<CompleteInput> = {}): CompleteInput => ({
  tenantId: A,
  key: "key-1",
  claimId: "claim-1",
  envelope: okEnvelope,
  now: 2_000,
  retentionMs: DAY,
  ...overrides,
});

const approvalOf = (overrides: Partial<NewApproval> = {}): NewApproval => ({
  tenantId: A,
  id: "approval-1",
  toolName: "mail.send",
  toolVersion: "1.0.0",
  effect: "external-write",
  definitionHash: "sha256:abc",
  input: { to: ["a@example.com"], subject: "hi", body: { text: "hello", attachments: [] } },
  description: "Send a mail to a@example.com",
  requestedBy: "agent:alice",
  runId: "run-1",
  toolCallId: "call-1",
  idempotencyKey: "key-1",
  fingerprint: "fp-1",
  createdAt: 1_000,
  expiresAt: 61_000,
  ...overrides,
});

const eventOf = (overrides: Partial<AuditEvent> = {}): AuditEvent => ({
  tenantId: A,
  id: "event-1",
  at: 1_000,
  kind: "tool-call",
  actor: "agent:alice",
  runId: "run-1",
  toolCallId: "call-1",
  tool: "mail.send",
  toolVersion: "1.0.0",
  effect: "external-write",
  outcome: "ok",
  durationMs: 12,
  approvalId: undefined,
  idempotencyKey: "key-1",
  approval: "always",
  message: undefined,
  ...overrides,
});

/** Registers the suite for one adapter; `factory` gives fresh, empty stores for every test. */
export function runStoreConformance(name: string, factory: () => Promise<StoreFixture>): void {
  describe(`${name} store conformance`, () => {
    let fixture: StoreFixture;
    let stores: Stores;
    beforeEach(async () => {
      fixture = await factory();
      stores = fixture.stores;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    describe("idempotency", () => {
      it("claims a fresh key and records it in progress", async () => {
        expect(await stores.idempotency.claim(claimOf())).toEqual({ kind: "claimed", reclaimed: false });
        const record = await stores.idempotency.get({ tenantId: A, key: "key-1" });
        expect(record).toMatchObject({
          tenantId: A,
          key: "key-1",
          fingerprint: "fp-1",
          toolName: "mail.send",
          status: "in_progress",
          claimId: "claim-1",
          leaseUntil: 1_000 + LEASE,
          createdAt: 1_000,
          updatedAt: 1_000,
          retainUntil: 1_000 + DAY,
          claimedAt: 1_000,
          claimedBy: "agent:alice",
          holder: "host-a:101",
          heartbeatAt: 1_000,
        });
        expect(record?.envelope).toBeUndefined();
        expect(await stores.idempotency.get({ tenantId: A, key: "missing" })).toBeUndefined();
      });

      it.each([
        ["an ok envelope", okEnvelope],
        ["an error envelope", errorEnvelope],
      ])("replays %s to a later claim of the completed key", async (_label, envelope) => {
        await stores.idempotency.claim(claimOf());
        const completed = await stores.idempotency.complete({
          tenantId: A,
          key: "key-1",
          claimId: "claim-1",
          envelope,
          now: 2_000,
          retentionMs: DAY,
        });
        expect(completed).toBe(true);
        const replay = await stores.idempotency.claim(claimOf({ claimId: "claim-2", now: 3_000 }));
        expect(replay).toEqual({ kind: "completed", envelope });
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          status: "completed",
          claimId: "claim-1",
          envelope,
          updatedAt: 2_000,
          retainUntil: 2_000 + DAY,
        });
      });

      it("refuses a different fingerprint while in progress and after completion", async () => {
        await stores.idempotency.claim(claimOf());
        expect(await stores.idempotency.claim(claimOf({ fingerprint: "fp-2", claimId: "claim-2" }))).toEqual({
          kind: "conflict",
        });
        await stores.idempotency.complete(completeOf());
        expect(
          await stores.idempotency.claim(claimOf({ fingerprint: "fp-2", claimId: "claim-3", now: 3_000 })),
        ).toEqual({ kind: "conflict" });
        // The conflicting claims wrote nothing.
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          fingerprint: "fp-1",
          claimId: "claim-1",
          envelope: okEnvelope,
        });
      });

      it("answers in_progress with the holder's lease while the first claim is in flight", async () => {
        await stores.idempotency.claim(claimOf());
        const second = await stores.idempotency.claim(
          claimOf({ claimId: "claim-2", now: 1_000 + LEASE - 1 }),
        );
        expect(second).toEqual({ kind: "in_progress", leaseUntil: 1_000 + LEASE });
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          claimId: "claim-1",
        });
      });

      it("lets a reclaimable claim take over an expired lease and locks the old claim out", async () => {
        await stores.idempotency.claim(claimOf());
        const takeover = await stores.idempotency.claim(
          claimOf({ claimId: "claim-2", holder: "host-b:202", now: 1_000 + LEASE }),
        );
        expect(takeover).toEqual({ kind: "claimed", reclaimed: true });
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          status: "in_progress",
          claimId: "claim-2",
          leaseUntil: 1_000 + 2 * LEASE,
          createdAt: 1_000,
          claimedAt: 1_000 + LEASE,
          holder: "host-b:202",
          heartbeatAt: 1_000 + LEASE,
        });
        const late = { tenantId: A, key: "key-1", envelope: errorEnvelope, now: 40_000, retentionMs: DAY };
        expect(await stores.idempotency.complete({ ...late, claimId: "claim-1" })).toBe(false);
        expect(await stores.idempotency.complete({ ...late, claimId: "claim-2", envelope: okEnvelope })).toBe(
          true,
        );
        expect(await stores.idempotency.claim(claimOf({ claimId: "claim-3", now: 50_000 }))).toEqual({
          kind: "completed",
          envelope: okEnvelope,
        });
      });

      it("marks an expired non-reclaimable claim unknown, keeps it unknown and reports it", async () => {
        await stores.idempotency.claim(claimOf({ reclaimable: false }));
        const expiredAt = 1_000 + LEASE + 5;
        const first = await stores.idempotency.claim(
          claimOf({ reclaimable: false, claimId: "claim-2", now: expiredAt }),
        );
        // What is known of the lost run comes with the answer: when, by whom, where, its last sign of life.
        const evidence = { startedAt: 1_000, by: "agent:alice", holder: "host-a:101", lastHeartbeat: 1_000 };
        expect(first).toEqual({ kind: "unknown", since: expiredAt, evidence });
        const later = await stores.idempotency.claim(
          claimOf({ reclaimable: false, claimId: "claim-3", now: expiredAt + DAY }),
        );
        expect(later).toEqual({ kind: "unknown", since: expiredAt, evidence });
        // Even a reclaimable claim cannot turn an unknown outcome back into a fresh run.
        expect(await stores.idempotency.claim(claimOf({ claimId: "claim-4", now: expiredAt + DAY }))).toEqual(
          { kind: "unknown", since: expiredAt, evidence },
        );
        const unknown = await stores.idempotency.list({ tenantId: A, status: "unknown" });
        expect(unknown.map((record) => [record.key, record.status, record.updatedAt])).toEqual([
          ["key-1", "unknown", expiredAt],
        ]);
        expect(await stores.idempotency.list({ tenantId: A, status: "in_progress" })).toEqual([]);
        // Another claim cannot complete it; its own holder, still running after all, records the real outcome.
        expect(
          await stores.idempotency.complete(completeOf({ claimId: "claim-2", now: expiredAt + 1 })),
        ).toBe(false);
        expect(await stores.idempotency.complete(completeOf({ now: expiredAt + 1 }))).toBe(true);
        expect(await stores.idempotency.claim(claimOf({ claimId: "claim-5", now: expiredAt + 2 }))).toEqual({
          kind: "completed",
          envelope: okEnvelope,
        });
      });

      it("renews a live claim's lease on its holder's heartbeat, and no other claim's", async () => {
        await stores.idempotency.claim(claimOf());
        const beat = { tenantId: A, key: "key-1", now: 20_000, leaseUntil: 20_000 + LEASE };
        expect(await stores.idempotency.heartbeat({ ...beat, claimId: "claim-2" })).toBe(false);
        expect(await stores.idempotency.heartbeat({ ...beat, claimId: "claim-1" })).toBe(true);
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          heartbeatAt: 20_000,
          leaseUntil: 20_000 + LEASE,
          claimedAt: 1_000,
        });
        // Past the first lease but within the renewed one, the claim is still running.
        expect(
          await stores.idempotency.claim(claimOf({ claimId: "claim-3", now: 1_000 + LEASE + 1 })),
        ).toEqual({
          kind: "in_progress",
          leaseUntil: 20_000 + LEASE,
        });
        await stores.idempotency.complete(completeOf({ now: 30_000 }));
        expect(await stores.idempotency.heartbeat({ ...beat, claimId: "claim-1", now: 31_000 })).toBe(false);
        expect(await stores.idempotency.heartbeat({ ...beat, key: "missing", claimId: "claim-1" })).toBe(
          false,
        );
      });

      it("lets a holder abandon its claim as unknown, once, and then still complete it", async () => {
        await stores.idempotency.claim(claimOf({ reclaimable: true }));
        const ref = { tenantId: A, key: "key-1", now: 5_000 };
        expect(await stores.idempotency.abandon({ ...ref, claimId: "claim-2" })).toBe(false);
        expect(await stores.idempotency.abandon({ ...ref, claimId: "claim-1" })).toBe(true);
        expect(await stores.idempotency.abandon({ ...ref, claimId: "claim-1" })).toBe(false);
        // Abandoned is unknown even to a reclaimable claim, however long after.
        expect(
          await stores.idempotency.claim(claimOf({ claimId: "claim-3", now: 1_000 + 10 * LEASE })),
        ).toEqual({
          kind: "unknown",
          since: 5_000,
          evidence: { startedAt: 1_000, by: "agent:alice", holder: "host-a:101", lastHeartbeat: 1_000 },
        });
        expect(await stores.idempotency.complete(completeOf({ now: 6_000 }))).toBe(true);
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          status: "completed",
          envelope: okEnvelope,
        });
      });

      it("claims an unknown or lapsed key again only for an operator's retry, with the same arguments", async () => {
        await stores.idempotency.claim(claimOf({ reclaimable: false }));
        await stores.idempotency.abandon({ tenantId: A, key: "key-1", claimId: "claim-1", now: 2_000 });
        const retry = claimOf({ reclaimable: false, retryUnknown: true, now: 3_000, holder: "host-c:303" });
        expect(await stores.idempotency.claim({ ...retry, claimId: "claim-2", fingerprint: "fp-2" })).toEqual(
          {
            kind: "conflict",
          },
        );
        expect(await stores.idempotency.claim({ ...retry, claimId: "claim-2" })).toEqual({
          kind: "claimed",
          reclaimed: true,
        });
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          status: "in_progress",
          claimId: "claim-2",
          claimedAt: 3_000,
          holder: "host-c:303",
        });
        // While the retry runs, a second retry waits like anyone else.
        expect(await stores.idempotency.claim({ ...retry, claimId: "claim-3", now: 3_001 })).toEqual({
          kind: "in_progress",
          leaseUntil: 3_000 + LEASE,
        });
        // A lapsed claim, not yet marked unknown, is retried the same way.
        await stores.idempotency.claim(claimOf({ key: "key-2", reclaimable: false }));
        expect(
          await stores.idempotency.claim({ ...retry, key: "key-2", claimId: "claim-4", now: 1_000 + LEASE }),
        ).toEqual({ kind: "claimed", reclaimed: true });
        // A completed one is only ever replayed.
        await stores.idempotency.complete(completeOf({ claimId: "claim-2", now: 4_000 }));
        expect(await stores.idempotency.claim({ ...retry, claimId: "claim-5", now: 5_000 })).toEqual({
          kind: "completed",
          envelope: okEnvelope,
        });
      });

      it("refuses to complete a missing key or a claim twice", async () => {
        const done = { tenantId: A, key: "key-1", claimId: "claim-1", now: 2_000, retentionMs: DAY };
        expect(await stores.idempotency.complete({ ...done, envelope: okEnvelope })).toBe(false);
        await stores.idempotency.claim(claimOf());
        expect(await stores.idempotency.complete({ ...done, envelope: okEnvelope })).toBe(true);
        expect(await stores.idempotency.complete({ ...done, envelope: errorEnvelope, now: 3_000 })).toBe(
          false,
        );
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          envelope: okEnvelope,
          updatedAt: 2_000,
        });
      });

      it("lists records by status", async () => {
        await stores.idempotency.claim(claimOf({ key: "done", now: 1_000 }));
        await stores.idempotency.claim(claimOf({ key: "running", now: 2_000 }));
        await stores.idempotency.complete(completeOf({ key: "done", now: 3_000 }));
        const keys = async (status?: "in_progress" | "completed" | "unknown") =>
          (await stores.idempotency.list({ tenantId: A, status })).map((record) => record.key).sort();
        expect(await keys()).toEqual(["done", "running"]);
        expect(await keys("completed")).toEqual(["done"]);
        expect(await keys("in_progress")).toEqual(["running"]);
        expect(await keys("unknown")).toEqual([]);
      });

      it("purges completed records past retention and keeps in-flight and unknown ones", async () => {
        const retentionMs = 1_000;
        await stores.idempotency.claim(claimOf({ key: "done", retentionMs }));
        await stores.idempotency.complete({
          tenantId: A,
          key: "done",
          claimId: "claim-1",
          envelope: okEnvelope,
          now: 2_000,
          retentionMs,
        });
        await stores.idempotency.claim(claimOf({ key: "running", retentionMs, leaseMs: 1_000_000 }));
        await stores.idempotency.claim(claimOf({ key: "lost", retentionMs, reclaimable: false }));
        await stores.idempotency.claim(
          claimOf({ key: "lost", reclaimable: false, claimId: "claim-2", now: 1_000 + LEASE }),
        );

        expect(await stores.idempotency.purge({ now: 2_999 })).toBe(0);
        expect(await stores.idempotency.get({ tenantId: A, key: "done" })).toBeDefined();
        // All three are past their retainUntil at this instant; only the completed one may go.
        expect(await stores.idempotency.purge({ now: 3_000 + LEASE })).toBe(1);
        expect(await stores.idempotency.get({ tenantId: A, key: "done" })).toBeUndefined();
        expect(await stores.idempotency.get({ tenantId: A, key: "running" })).toMatchObject({
          status: "in_progress",
        });
        expect(await stores.idempotency.get({ tenantId: A, key: "lost" })).toMatchObject({
          status: "unknown",
        });
        expect(await stores.idempotency.purge({ now: 3_000 + LEASE })).toBe(0);
      });

      it("starts fresh when a completed record's retention has passed, purged or not", async () => {
        await stores.idempotency.claim(claimOf({ retentionMs: 1_000 }));
        await stores.idempotency.complete(completeOf({ retentionMs: 1_000 }));
        expect(await stores.idempotency.claim(claimOf({ claimId: "claim-2", now: 2_999 }))).toEqual({
          kind: "completed",
          envelope: okEnvelope,
        });
        expect(await stores.idempotency.claim(claimOf({ claimId: "claim-3", now: 3_000 }))).toEqual({
          kind: "claimed",
          reclaimed: false,
        });
        const record = await stores.idempotency.get({ tenantId: A, key: "key-1" });
        expect(record).toMatchObject({ status: "in_progress", claimId: "claim-3", createdAt: 3_000 });
        expect(record?.envelope).toBeUndefined();
      });

      it("gives exactly one of 50 concurrent claims of one key", async () => {
        const outcomes = await Promise.all(
          Array.from({ length: 50 }, (_, index) =>
            stores.idempotency.claim(claimOf({ claimId: `claim-${index}` })),
          ),
        );
        expect(outcomes.filter((outcome) => outcome.kind === "claimed")).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome.kind === "in_progress")).toHaveLength(49);
        const winner = outcomes.findIndex((outcome) => outcome.kind === "claimed");
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          claimId: `claim-${winner}`,
        });
      });

      it("hands out copies, so a caller's edits do not reach the store", async () => {
        await stores.idempotency.claim(claimOf());
        const record = await stores.idempotency.get({ tenantId: A, key: "key-1" });
        if (record) record.status = "completed";
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          status: "in_progress",
        });
      });
    });

    describe("approvals", () => {
      it("creates a pending approval and reads it back whole", async () => {
        const created = await stores.approvals.create(approvalOf());
        expect(created).toEqual({
          ...approvalOf(),
          interruption: undefined,
          retriedBy: undefined,
          retriedAt: undefined,
          status: "pending",
          decidedBy: undefined,
          decidedAt: undefined,
          note: undefined,
          result: undefined,
          finishedAt: undefined,
          answers: undefined,
        });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toEqual(created);
        expect(await stores.approvals.get({ tenantId: A, id: "missing" })).toBeUndefined();
      });

      it("refuses a second approval with the same id in one tenant", async () => {
        await stores.approvals.create(approvalOf());
        await expect(stores.approvals.create(approvalOf({ description: "again" }))).rejects.toThrow(
          /already exists/,
        );
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          description: "Send a mail to a@example.com",
        });
      });

      it("lists newest first, filtered by status, up to a limit", async () => {
        await stores.approvals.create(approvalOf({ id: "old", createdAt: 1_000 }));
        await stores.approvals.create(approvalOf({ id: "new", createdAt: 3_000 }));
        await stores.approvals.create(approvalOf({ id: "mid", createdAt: 2_000 }));
        await stores.approvals.decide({ tenantId: A, id: "mid", decision: "approved", by: "bob", at: 4_000 });
        const ids = async (input: { status?: "pending" | "approved" | "denied"; limit?: number } = {}) =>
          (await stores.approvals.list({ tenantId: A, ...input })).map((record) => record.id);
        expect(await ids()).toEqual(["new", "mid", "old"]);
        expect(await ids({ status: "pending" })).toEqual(["new", "old"]);
        expect(await ids({ status: "approved" })).toEqual(["mid"]);
        expect(await ids({ status: "denied" })).toEqual([]);
        expect(await ids({ limit: 2 })).toEqual(["new", "mid"]);
        expect(await ids({ status: "pending", limit: 1 })).toEqual(["new"]);
      });

      it("approves once, recording who, when and why", async () => {
        await stores.approvals.create(approvalOf());
        const outcome = await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "bob",
          at: 2_000,
          note: "looks right",
        });
        expect(outcome).toMatchObject({
          ok: true,
          record: { status: "approved", decidedBy: "bob", decidedAt: 2_000, note: "looks right" },
        });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toEqual(outcome.record);
        const again = await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "denied",
          by: "carol",
          at: 3_000,
        });
        expect(again).toMatchObject({ ok: false, reason: "already_decided", record: { status: "approved" } });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "approved",
          decidedBy: "bob",
        });
      });

      it("denies, and a later approval is refused", async () => {
        await stores.approvals.create(approvalOf());
        const outcome = await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "denied",
          by: "bob",
          at: 2_000,
        });
        expect(outcome).toMatchObject({
          ok: true,
          record: { status: "denied", decidedBy: "bob", decidedAt: 2_000 },
        });
        expect(outcome.record?.note).toBeUndefined();
        expect(
          await stores.approvals.decide({
            tenantId: A,
            id: "approval-1",
            decision: "approved",
            by: "eve",
            at: 2_500,
          }),
        ).toMatchObject({ ok: false, reason: "already_decided" });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "denied",
        });
      });

      it("says not_found for an unknown approval", async () => {
        expect(
          await stores.approvals.decide({
            tenantId: A,
            id: "missing",
            decision: "approved",
            by: "bob",
            at: 1,
          }),
        ).toEqual({ ok: false, reason: "not_found", record: undefined });
      });

      it("expires a pending approval decided too late", async () => {
        await stores.approvals.create(approvalOf({ expiresAt: 5_000 }));
        const late = await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "bob",
          at: 5_000,
        });
        expect(late).toMatchObject({ ok: false, reason: "expired", record: { status: "expired" } });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "expired",
          decidedBy: undefined,
        });
        expect(
          await stores.approvals.decide({
            tenantId: A,
            id: "approval-1",
            decision: "denied",
            by: "bob",
            at: 6_000,
          }),
        ).toMatchObject({ ok: false, reason: "expired" });
      });

      it("expire() marks only pending approvals past their expiry and counts them", async () => {
        await stores.approvals.create(approvalOf({ id: "due", expiresAt: 5_000 }));
        await stores.approvals.create(approvalOf({ id: "also-due", expiresAt: 4_000 }));
        await stores.approvals.create(approvalOf({ id: "later", expiresAt: 9_000 }));
        await stores.approvals.create(approvalOf({ id: "approved", expiresAt: 5_000 }));
        await stores.approvals.decide({
          tenantId: A,
          id: "approved",
          decision: "approved",
          by: "bob",
          at: 2_000,
        });

        expect(await stores.approvals.expire({ now: 3_999 })).toBe(0);
        expect(await stores.approvals.expire({ now: 5_000 })).toBe(2);
        expect(await stores.approvals.expire({ now: 5_000 })).toBe(0);
        const status = async (id: string) => (await stores.approvals.get({ tenantId: A, id }))?.status;
        expect(await status("due")).toBe("expired");
        expect(await status("also-due")).toBe("expired");
        expect(await status("later")).toBe("pending");
        expect(await status("approved")).toBe("approved");
        expect(
          (await stores.approvals.list({ tenantId: A, status: "expired" })).map((r) => r.id).sort(),
        ).toEqual(["also-due", "due"]);
      });

      it("counts no waiting approvals in an empty store", async () => {
        expect(await stores.approvals.waiting({ now: 1_000 })).toEqual({
          count: 0,
          oldestCreatedAt: undefined,
        });
      });

      it("counts waiting approvals of every tenant together, with the oldest one's creation", async () => {
        await stores.approvals.create(approvalOf({ tenantId: A, id: "a-new", createdAt: 3_000 }));
        await stores.approvals.create(approvalOf({ tenantId: B, id: "b-old", createdAt: 1_500 }));
        await stores.approvals.create(approvalOf({ tenantId: A, id: "a-mid", createdAt: 2_000 }));
        expect(await stores.approvals.waiting({ now: 4_000 })).toEqual({ count: 3, oldestCreatedAt: 1_500 });
      });

      it("counts neither decided approvals nor pending ones past their expiry, swept or not", async () => {
        const add = (id: string, createdAt: number, expiresAt = 61_000) =>
          stores.approvals.create(approvalOf({ id, createdAt, expiresAt }));
        await add("approved", 1_000);
        await add("denied", 1_100);
        await add("swept", 1_200, 5_000);
        await add("lapsed", 1_300, 9_000);
        await add("waiting", 1_400);
        for (const decision of ["approved", "denied"] as const) {
          await stores.approvals.decide({ tenantId: A, id: decision, decision, by: "bob", at: 2_000 });
        }
        expect(await stores.approvals.waiting({ now: 4_000 })).toEqual({ count: 3, oldestCreatedAt: 1_200 });
        await stores.approvals.expire({ now: 5_000 });
        // "lapsed" is still pending in storage, but at its expiry it can no longer be approved.
        expect(await stores.approvals.waiting({ now: 9_000 })).toEqual({ count: 1, oldestCreatedAt: 1_400 });
        expect((await stores.approvals.get({ tenantId: A, id: "lapsed" }))?.status).toBe("pending");
        await stores.approvals.decide({
          tenantId: A,
          id: "waiting",
          decision: "denied",
          by: "bob",
          at: 9_000,
        });
        expect(await stores.approvals.waiting({ now: 9_000 })).toEqual({
          count: 0,
          oldestCreatedAt: undefined,
        });
      });

      it("lets exactly one of a concurrent approve and deny win", async () => {
        await stores.approvals.create(approvalOf());
        const [approve, deny] = await Promise.all([
          stores.approvals.decide({
            tenantId: A,
            id: "approval-1",
            decision: "approved",
            by: "bob",
            at: 2_000,
          }),
          stores.approvals.decide({
            tenantId: A,
            id: "approval-1",
            decision: "denied",
            by: "carol",
            at: 2_000,
          }),
        ]);
        const outcomes = [approve, deny];
        const winners = outcomes.filter((outcome) => outcome.ok);
        const losers = outcomes.filter((outcome) => !outcome.ok);
        expect(winners).toHaveLength(1);
        expect(losers).toHaveLength(1);
        expect(losers[0]).toMatchObject({ ok: false, reason: "already_decided" });
        const stored = await stores.approvals.get({ tenantId: A, id: "approval-1" });
        expect(stored?.status).toBe(winners[0]?.record?.status);
        expect(stored?.decidedBy).toBe(winners[0]?.record?.decidedBy);
      });

      it("finishes only an approved approval, and only once", async () => {
        await stores.approvals.create(approvalOf());
        const finish = {
          tenantId: A,
          id: "approval-1",
          status: "executed" as const,
          result: okEnvelope,
          at: 3_000,
        };
        expect(await stores.approvals.finish(finish)).toBe(false);
        expect(await stores.approvals.finish({ ...finish, id: "missing" })).toBe(false);
        await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "bob",
          at: 2_000,
        });
        expect(await stores.approvals.finish(finish)).toBe(true);
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "executed",
          result: okEnvelope,
          finishedAt: 3_000,
          decidedBy: "bob",
        });
        expect(
          await stores.approvals.finish({ ...finish, status: "refused", result: errorEnvelope, at: 4_000 }),
        ).toBe(false);
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "executed",
          result: okEnvelope,
          finishedAt: 3_000,
        });
      });

      it("records a refusal at resume and refuses to finish a denied or expired approval", async () => {
        await stores.approvals.create(approvalOf({ id: "approved" }));
        await stores.approvals.create(approvalOf({ id: "denied" }));
        await stores.approvals.create(approvalOf({ id: "expired", expiresAt: 1_500 }));
        await stores.approvals.decide({
          tenantId: A,
          id: "approved",
          decision: "approved",
          by: "bob",
          at: 2_000,
        });
        await stores.approvals.decide({
          tenantId: A,
          id: "denied",
          decision: "denied",
          by: "bob",
          at: 2_000,
        });
        await stores.approvals.expire({ now: 2_000 });
        const refuse = { tenantId: A, status: "refused" as const, result: errorEnvelope, at: 3_000 };
        expect(await stores.approvals.finish({ ...refuse, id: "denied" })).toBe(false);
        expect(await stores.approvals.finish({ ...refuse, id: "expired" })).toBe(false);
        expect(await stores.approvals.finish({ ...refuse, id: "approved" })).toBe(true);
        expect(await stores.approvals.get({ tenantId: A, id: "approved" })).toMatchObject({
          status: "refused",
          result: errorEnvelope,
        });
      });
    });

    describe("approvals answered by a human", () => {
      const answers = { q1: { choices: ["blue"] }, q2: { text: 'ship it on Friday, "not" Monday' } };
      const answer = (by: string, given: unknown, at = 2_000) =>
        stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by,
          at,
          answers: given,
        });

      it("records the answers with the decision, once: a second answer is refused and changes nothing", async () => {
        await stores.approvals.create(approvalOf());
        const first = await answer("bob", answers);
        expect(first).toMatchObject({ ok: true, record: { status: "approved", decidedBy: "bob", answers } });
        const second = await answer("carol", { q1: { choices: ["red"] } }, 3_000);
        expect(second).toMatchObject({ ok: false, reason: "already_decided", record: { answers } });
        const denial = await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "denied",
          by: "carol",
          at: 3_000,
        });
        expect(denial).toMatchObject({ ok: false, reason: "already_decided" });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "approved",
          decidedBy: "bob",
          decidedAt: 2_000,
          answers,
        });
      });

      it("keeps the answers through the run's finish, and records none for an expired approval", async () => {
        await stores.approvals.create(approvalOf());
        await stores.approvals.create(approvalOf({ id: "late", idempotencyKey: "key-2", expiresAt: 1_500 }));
        await answer("bob", answers);
        expect(
          await stores.approvals.finish({
            tenantId: A,
            id: "approval-1",
            status: "executed",
            result: okEnvelope,
            at: 3_000,
          }),
        ).toBe(true);
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "executed",
          answers,
        });
        const late = await stores.approvals.decide({
          tenantId: A,
          id: "late",
          decision: "approved",
          by: "bob",
          at: 2_000,
          answers,
        });
        expect(late).toMatchObject({ ok: false, reason: "expired" });
        expect((await stores.approvals.get({ tenantId: A, id: "late" }))?.answers).toBeUndefined();
      });

      it("answers another tenant's approval with nothing", async () => {
        await stores.approvals.create(approvalOf());
        const foreign = await stores.approvals.decide({
          tenantId: B,
          id: "approval-1",
          decision: "approved",
          by: "mallory",
          at: 2_000,
          answers,
        });
        expect(foreign).toMatchObject({ ok: false, reason: "not_found" });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "pending",
          answers: undefined,
        });
      });
    });

    // Whether the adapter can reopen is known only from a fixture, so one is built (and dropped) while collecting.
    describe("answers across a reopen", async () => {
      const title = "keeps an approval's answers and its decision across a reopen";
      const probe = await factory();
      const durable = probe.reopen !== undefined;
      await probe.cleanup();
      if (!durable) {
        it.skip(`${title} (skipped: ${name} has no durable storage to reopen)`, () => {});
        return;
      }
      it(title, async () => {
        const reopen = fixture.reopen;
        if (!reopen) throw new Error(`${name} declared reopen but the fixture has none`);
        const answers = { q1: { choices: ["a", "b"] }, q2: { text: "émoji 🚀 and a\nline break" } };
        await stores.approvals.create(approvalOf());
        await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "bob",
          at: 2_000,
          answers,
        });
        const reopened = await reopen();
        expect(await reopened.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "approved",
          decidedBy: "bob",
          answers,
        });
        const again = await reopened.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "carol",
          at: 3_000,
          answers: {},
        });
        expect(again).toMatchObject({ ok: false, reason: "already_decided", record: { answers } });
      });
    });

    describe("approvals: one per key, and every one ends", () => {
      const approve = (id: string, at = 2_000) =>
        stores.approvals.decide({ tenantId: A, id, decision: "approved", by: "bob", at });
      const shutdown = {
        reason: "shutdown" as const,
        at: 5_000,
        startedAt: 3_000,
        by: "agent:alice",
        holder: "host-a:101",
        lastHeartbeat: 4_000,
      };

      it("parks once per key: a duplicate gets the approval already made, another key a new one", async () => {
        const first = await stores.approvals.park(approvalOf());
        expect(first).toMatchObject({ created: true, record: { id: "approval-1", status: "pending" } });
        const again = await stores.approvals.park(approvalOf({ id: "approval-2", createdAt: 2_000 }));
        expect(again).toEqual({ created: false, record: first.record });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-2" })).toBeUndefined();
        const other = await stores.approvals.park(approvalOf({ id: "approval-3", idempotencyKey: "key-2" }));
        expect(other.created).toBe(true);
        // The same key in another tenant is another call.
        expect((await stores.approvals.park(approvalOf({ tenantId: B, id: "approval-4" }))).created).toBe(
          true,
        );
        // Whatever became of the approval, the key's duplicates keep finding it.
        await approve("approval-1");
        expect(await stores.approvals.park(approvalOf({ id: "approval-5" }))).toMatchObject({
          created: false,
          record: { id: "approval-1", status: "approved" },
        });
      });

      it("finds the newest approval under a key once a superseding one is made", async () => {
        await stores.approvals.create(approvalOf({ id: "first", createdAt: 1_000 }));
        await stores.approvals.create(approvalOf({ id: "second", createdAt: 2_000 }));
        expect(await stores.approvals.park(approvalOf({ id: "third", createdAt: 3_000 }))).toMatchObject({
          created: false,
          record: { id: "second" },
        });
      });

      // Sent together from one thread; the SQLite adapter's own test races them across connections.
      it("parks exactly one of 30 duplicates sent together", async () => {
        const parked = await Promise.all(
          Array.from({ length: 30 }, (_, index) => stores.approvals.park(approvalOf({ id: `dup-${index}` }))),
        );
        expect(parked.filter((outcome) => outcome.created)).toHaveLength(1);
        expect(new Set(parked.map((outcome) => outcome.record.id)).size).toBe(1);
        expect(await stores.approvals.list({ tenantId: A })).toHaveLength(1);
      });

      it("interrupts only an approved approval, keeping what is known", async () => {
        await stores.approvals.create(approvalOf());
        expect(
          await stores.approvals.interrupt({ tenantId: A, id: "approval-1", interruption: shutdown }),
        ).toBe(false);
        await approve("approval-1");
        expect(
          await stores.approvals.interrupt({ tenantId: B, id: "approval-1", interruption: shutdown }),
        ).toBe(false);
        expect(
          await stores.approvals.interrupt({ tenantId: A, id: "approval-1", interruption: shutdown }),
        ).toBe(true);
        expect(
          await stores.approvals.interrupt({ tenantId: A, id: "approval-1", interruption: shutdown }),
        ).toBe(false);
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "interrupted",
          interruption: shutdown,
          decidedBy: "bob",
        });
        expect(
          (await stores.approvals.list({ tenantId: A, status: "interrupted" })).map((r) => r.id),
        ).toEqual(["approval-1"]);
      });

      it("retries an interrupted approval once, as an operator's act, and keeps its history", async () => {
        await stores.approvals.create(approvalOf());
        const retry = { tenantId: A, id: "approval-1", by: "olivia", at: 6_000 };
        expect(await stores.approvals.retry(retry)).toMatchObject({ ok: false, reason: "not_interrupted" });
        expect(await stores.approvals.retry({ ...retry, id: "missing" })).toEqual({
          ok: false,
          reason: "not_found",
          record: undefined,
        });
        await approve("approval-1");
        await stores.approvals.interrupt({ tenantId: A, id: "approval-1", interruption: shutdown });
        const retried = await stores.approvals.retry(retry);
        expect(retried).toMatchObject({
          ok: true,
          record: { status: "approved", retriedBy: "olivia", retriedAt: 6_000, interruption: shutdown },
        });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toEqual(retried.record);
        expect(await stores.approvals.retry({ ...retry, at: 7_000 })).toMatchObject({
          ok: false,
          reason: "not_interrupted",
        });
      });

      it("finishes an interrupted approval whose run turns out to have ended", async () => {
        await stores.approvals.create(approvalOf());
        await approve("approval-1");
        await stores.approvals.interrupt({ tenantId: A, id: "approval-1", interruption: shutdown });
        const finish = {
          tenantId: A,
          id: "approval-1",
          status: "executed" as const,
          result: okEnvelope,
          at: 8_000,
        };
        expect(await stores.approvals.finish(finish)).toBe(true);
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "executed",
          result: okEnvelope,
          interruption: shutdown,
        });
      });

      it("lists approved approvals of every tenant, oldest decision first, up to a limit", async () => {
        for (const [tenantId, id, at] of [
          [A, "late", 3_000],
          [B, "early", 1_500],
          [A, "pending", 0],
        ] as const) {
          await stores.approvals.create(approvalOf({ tenantId, id }));
          if (at > 0) await stores.approvals.decide({ tenantId, id, decision: "approved", by: "bob", at });
        }
        const listed = await stores.approvals.listApproved({ limit: 10 });
        expect(listed.map((record) => [record.tenantId, record.id])).toEqual([
          [B, "early"],
          [A, "late"],
        ]);
        expect((await stores.approvals.listApproved({ limit: 1 })).map((record) => record.id)).toEqual([
          "early",
        ]);
      });
    });

    describe("audit events written with the change they belong to", () => {
      const eventIds = async () => (await stores.audit.list({ tenantId: A })).map((event) => event.id);

      it("writes a completion's event exactly when the completion is made", async () => {
        expect(stores.idempotency.completionAudit).toBe(stores.audit);
        await stores.idempotency.claim(claimOf());
        const audit = eventOf({ id: "event-completed", at: 2_000 });
        expect(await stores.idempotency.complete(completeOf({ audit }))).toBe(true);
        expect(await stores.audit.list({ tenantId: A })).toStrictEqual([audit]);
        // A second completion of the claim is refused, and so is its event.
        const late = eventOf({ id: "event-late", at: 3_000 });
        expect(await stores.idempotency.complete(completeOf({ audit: late, now: 3_000 }))).toBe(false);
        // So is the event of a completion whose claim was never made.
        const stray = eventOf({ id: "event-stray", at: 3_000 });
        expect(await stores.idempotency.complete(completeOf({ key: "key-9", audit: stray }))).toBe(false);
        expect(await eventIds()).toEqual(["event-completed"]);
      });

      it("writes a request's event exactly when its approval is parked, not for a duplicate", async () => {
        expect(stores.approvals.parkingAudit).toBe(stores.audit);
        const request = eventOf({ id: "event-request", kind: "approval-request", approvalId: "approval-1" });
        expect((await stores.approvals.park(approvalOf(), request)).created).toBe(true);
        const duplicate = eventOf({
          id: "event-duplicate",
          kind: "approval-request",
          approvalId: "approval-2",
        });
        expect((await stores.approvals.park(approvalOf({ id: "approval-2" }), duplicate)).created).toBe(
          false,
        );
        expect(await stores.audit.list({ tenantId: A })).toStrictEqual([request]);
      });

      it("writes one event for one of 30 duplicates parked together", async () => {
        const parked = await Promise.all(
          Array.from({ length: 30 }, (_, index) =>
            stores.approvals.park(
              approvalOf({ id: `approval-${index}` }),
              eventOf({ id: `event-${index}`, kind: "approval-request", approvalId: `approval-${index}` }),
            ),
          ),
        );
        const created = parked.filter((outcome) => outcome.created);
        expect(created).toHaveLength(1);
        const events = await stores.audit.list({ tenantId: A });
        expect(events.map((event) => event.approvalId)).toEqual([created[0]?.record.id]);
      });
    });

    describe("tenant isolation", () => {
      it("keeps one idempotency key in two tenants as two records", async () => {
        expect(await stores.idempotency.claim(claimOf({ tenantId: A, fingerprint: "fp-a" }))).toEqual({
          kind: "claimed",
          reclaimed: false,
        });
        expect(
          await stores.idempotency.claim(claimOf({ tenantId: B, fingerprint: "fp-b", claimId: "b" })),
        ).toEqual({
          kind: "claimed",
          reclaimed: false,
        });
        await stores.idempotency.complete(completeOf());
        // B's claim is still in flight, and A's claimId means nothing in B.
        expect(
          await stores.idempotency.claim(claimOf({ tenantId: B, fingerprint: "fp-b", claimId: "b2" })),
        ).toEqual({
          kind: "in_progress",
          leaseUntil: 1_000 + LEASE,
        });
        expect(await stores.idempotency.complete(completeOf({ tenantId: B }))).toBe(false);
        expect(await stores.idempotency.get({ tenantId: A, key: "key-1" })).toMatchObject({
          fingerprint: "fp-a",
          status: "completed",
        });
        expect(await stores.idempotency.get({ tenantId: B, key: "key-1" })).toMatchObject({
          fingerprint: "fp-b",
          status: "in_progress",
        });
        expect((await stores.idempotency.list({ tenantId: A })).map((record) => record.tenantId)).toEqual([
          A,
        ]);
        expect(await stores.idempotency.list({ tenantId: "tenant-c" })).toEqual([]);
      });

      it("keeps one approval id in two tenants as two records", async () => {
        await stores.approvals.create(approvalOf({ tenantId: A, description: "for A" }));
        await stores.approvals.create(approvalOf({ tenantId: B, description: "for B" }));
        await stores.approvals.decide({
          tenantId: A,
          id: "approval-1",
          decision: "approved",
          by: "bob",
          at: 2_000,
        });
        expect(await stores.approvals.get({ tenantId: B, id: "approval-1" })).toMatchObject({
          status: "pending",
          description: "for B",
        });
        expect(
          await stores.approvals.finish({
            tenantId: B,
            id: "approval-1",
            status: "executed",
            result: okEnvelope,
            at: 3_000,
          }),
        ).toBe(false);
        expect(
          await stores.approvals.decide({
            tenantId: B,
            id: "approval-1",
            decision: "denied",
            by: "eve",
            at: 2_500,
          }),
        ).toMatchObject({ ok: true, record: { tenantId: B, status: "denied" } });
        expect(await stores.approvals.get({ tenantId: A, id: "approval-1" })).toMatchObject({
          status: "approved",
          description: "for A",
        });
        const listA = await stores.approvals.list({ tenantId: A });
        expect(listA.map((record) => [record.tenantId, record.description])).toEqual([[A, "for A"]]);
        expect(await stores.approvals.get({ tenantId: "tenant-c", id: "approval-1" })).toBeUndefined();
      });

      it("never lists one tenant's audit events to another", async () => {
        await stores.audit.record(eventOf({ tenantId: A, id: "same-id", message: "A's" }));
        await stores.audit.record(eventOf({ tenantId: B, id: "same-id", message: "B's" }));
        await stores.audit.record(eventOf({ tenantId: B, id: "b-only", at: 2_000 }));
        const listA = await stores.audit.list({ tenantId: A });
        expect(listA.map((event) => [event.tenantId, event.id, event.message])).toEqual([
          [A, "same-id", "A's"],
        ]);
        const listB = await stores.audit.list({ tenantId: B });
        expect(listB.map((event) => event.id)).toEqual(["b-only", "same-id"]);
        expect(listB.every((event) => event.tenantId === B)).toBe(true);
        expect(await stores.audit.list({ tenantId: "tenant-c" })).toEqual([]);
      });
    });

    describe("audit", () => {
      it("reads an event back with every field as recorded", async () => {
        const full = eventOf({
          approvalId: "approval-1",
          message: "sent",
          durationMs: 12.5,
          outcome: "replayed",
        });
        const sparse = eventOf({
          id: "event-2",
          at: 2_000,
          kind: "approval-decision",
          actor: "human:bob",
          runId: undefined,
          toolCallId: undefined,
          toolVersion: undefined,
          effect: undefined,
          outcome: "approved",
          durationMs: undefined,
          idempotencyKey: undefined,
          approval: undefined,
        });
        await stores.audit.record(full);
        await stores.audit.record(sparse);
        expect(await stores.audit.list({ tenantId: A })).toStrictEqual([sparse, full]);
      });

      it("lists newest first, up to a limit, filtered by tool and since", async () => {
        const plan = [
          ["e1", 1_000, "mail.send"],
          ["e2", 2_000, "files.delete"],
          ["e3", 3_000, "mail.send"],
          ["e4", 4_000, "files.delete"],
          ["e5", 5_000, "mail.send"],
        ] as const;
        for (const [id, at, tool] of plan) await stores.audit.record(eventOf({ id, at, tool }));
        const ids = async (filter: { limit?: number; tool?: string; since?: number } = {}) =>
          (await stores.audit.list({ tenantId: A, ...filter })).map((event) => event.id);
        expect(await ids()).toEqual(["e5", "e4", "e3", "e2", "e1"]);
        expect(await ids({ limit: 2 })).toEqual(["e5", "e4"]);
        expect(await ids({ tool: "mail.send" })).toEqual(["e5", "e3", "e1"]);
        expect(await ids({ tool: "nothing" })).toEqual([]);
        expect(await ids({ since: 3_000 })).toEqual(["e5", "e4", "e3"]);
        expect(await ids({ tool: "files.delete", since: 3_000 })).toEqual(["e4"]);
        expect(await ids({ tool: "mail.send", since: 2_000, limit: 1 })).toEqual(["e5"]);
      });

      it("pages back from a cursor without losing events recorded in the same millisecond", async () => {
        const plan = [
          ["p1", 1_000],
          ["p2", 2_000],
          ["p3", 2_000],
          ["p4", 2_000],
          ["p5", 3_000],
        ] as const;
        for (const [id, at] of plan) await stores.audit.record(eventOf({ id, at }));
        await stores.audit.record({ ...eventOf({ id: "other", at: 2_000 }), tenantId: B });
        const seen: string[] = [];
        let before: { at: number; id: string } | undefined;
        for (let page = 0; page < 10; page++) {
          const events = await stores.audit.list({ tenantId: A, limit: 2, ...(before ? { before } : {}) });
          if (events.length === 0) break;
          seen.push(...events.map((event) => event.id));
          const last = events.at(-1) as { at: number; id: string };
          before = { at: last.at, id: last.id };
        }
        expect(seen).toEqual(["p5", "p4", "p3", "p2", "p1"]);
      });
    });

    // Whether the adapter can reopen is known only from a fixture, so one is built (and dropped) while collecting.
    describe("crash between claim and complete", async () => {
      const title = "keeps the claim across a reopen and reports it unknown once its lease expires";
      const probe = await factory();
      const durable = probe.reopen !== undefined;
      await probe.cleanup();
      if (!durable) {
        it.skip(`${title} (skipped: ${name} has no durable storage to reopen)`, () => {});
        return;
      }
      it(title, async () => {
        const reopen = fixture.reopen;
        if (!reopen) throw new Error(`${name} declared reopen but the fixture has none`);
        await stores.idempotency.claim(claimOf({ reclaimable: false }));
        const reopened = await reopen();
        const inFlight = await reopened.idempotency.list({ tenantId: A, status: "in_progress" });
        expect(inFlight.map((record) => [record.key, record.claimId, record.leaseUntil])).toEqual([
          ["key-1", "claim-1", 1_000 + LEASE],
        ]);
        const retry = await reopened.idempotency.claim(
          claimOf({ reclaimable: false, claimId: "claim-2", now: 1_000 + LEASE }),
        );
        expect(retry).toEqual({
          kind: "unknown",
          since: 1_000 + LEASE,
          evidence: { startedAt: 1_000, by: "agent:alice", holder: "host-a:101", lastHeartbeat: 1_000 },
        });
        expect(
          (await reopened.idempotency.list({ tenantId: A, status: "unknown" })).map((record) => record.key),
        ).toEqual(["key-1"]);
      });
    });
  });
}
