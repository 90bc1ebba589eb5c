/**
 * @module The one conformance suite every AttachmentStore adapter runs (memory, SQLite, PostgreSQL): who may
 * read what (another principal, tenant or run is answered like a missing id), principal-wide and run-scoped
 * attachments, equal bytes kept once per tenant, the caps decided with the insert, names, newest-first pages,
 * expiry and the repair of what a crash leaves. The cases about stored bytes run where the fixture can reach
 * them (`blobs`): the memory store has no bytes apart from its records to lose or leave behind.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { sha256Of } from "../../src/ports/attachment-rules.js";
import {
  type AddOutcome,
  ATTACHMENT_LIMITS,
  type Attachment,
  type AttachmentOwner,
  type AttachmentReader,
  type AttachmentStore,
} from "../../src/ports/attachment-store.js";

/** The caps the suite's stores are opened with, so reaching one takes a few bytes. */
export const CONFORMANCE_CAPS = { bytes: 64, tenantBytes: 160, principalBytes: 128 } as const;

export interface AttachmentStoreFixture {
  store: AttachmentStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<AttachmentStore>;
  /** A second connection to the same storage, as another instance would have; only shared adapters provide it. */
  another?: () => Promise<AttachmentStore>;
  /** The stored bytes under the records, for the adapters that keep them apart. */
  blobs?: {
    /** How many distinct contents the tenant's storage holds. */
    count(tenantId: string): Promise<number>;
    /** Stores bytes no attachment names, as a crash after writing them would leave. */
    plant(tenantId: string, bytes: Uint8Array): Promise<void>;
    /** Deletes the stored bytes of `sha256`, as a lost file would. */
    drop(tenantId: string, sha256: string): Promise<void>;
  };
  cleanup(): Promise<void>;
}

const DAY = 86_400_000;
const ADA: AttachmentReader = { tenantId: "acme", principalId: "user:ada", runId: "run-1" };
const ADA_LATER: AttachmentReader = { ...ADA, runId: "run-2" };
const BOB: AttachmentReader = { ...ADA, principalId: "user:bob" };
const ADA_ELSEWHERE: AttachmentReader = { ...ADA, tenantId: "globex" };
const text = (value: string) => new TextEncoder().encode(value);

/** Registers the suite for one adapter; `factory` gives a fresh, empty store with CONFORMANCE_CAPS. */
export function runAttachmentStoreConformance(
  name: string,
  factory: () => Promise<AttachmentStoreFixture>,
): void {
  describe(`${name} attachment store conformance`, () => {
    let fixture: AttachmentStoreFixture;
    let store: AttachmentStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    const add = async (
      owner: AttachmentOwner,
      content: string,
      extra: { name?: string; now?: number; retentionMs?: number; on?: AttachmentStore } = {},
    ): Promise<Attachment> => {
      const outcome = await (extra.on ?? store).add(owner, {
        name: extra.name ?? "notes.txt",
        mediaType: "text/plain",
        bytes: text(content),
        now: extra.now ?? Date.now(),
        ...(extra.retentionMs === undefined ? {} : { retentionMs: extra.retentionMs }),
      });
      if (!outcome.added) throw new Error(`not added: ${outcome.reason}`);
      return outcome.attachment;
    };
    const ids = async (reader: AttachmentReader, on = store) =>
      (await on.list(reader, { limit: 100 })).attachments.map((attachment) => attachment.id);
    const readText = async (reader: AttachmentReader, id: string, on = store) => {
      const read = await on.read(reader, id);
      return read && new TextDecoder().decode(read.bytes);
    };

    it("adds an attachment and gives back its record, then its record and bytes to its uploader", async () => {
      const now = Date.now();
      const outcome = await store.add(ADA, {
        name: "invoice 7.txt",
        mediaType: "text/plain",
        bytes: text("total: 42"),
        now,
      });
      expect(outcome).toEqual({
        added: true,
        attachment: {
          id: expect.stringMatching(/^att_[0-9a-f]{24}$/),
          sha256: sha256Of(text("total: 42")),
          name: "invoice 7.txt",
          mediaType: "text/plain",
          size: 9,
          principalId: "user:ada",
          runId: "run-1",
          createdAt: now,
          expiresAt: now + ATTACHMENT_LIMITS.defaultRetentionMs,
        },
      });
      const added = (outcome as Extract<AddOutcome, { added: true }>).attachment;
      const read = await store.read(ADA, added.id);
      expect(read?.attachment).toEqual(added);
      expect(new TextDecoder().decode(read?.bytes)).toBe("total: 42");
      expect(await store.list(ADA, { limit: 10 })).toEqual({ attachments: [added] });
    });

    it("answers another principal, another tenant and another run as it answers a missing id", async () => {
      const scoped = await add(ADA, "for run 1 only");
      for (const stranger of [BOB, ADA_ELSEWHERE, ADA_LATER]) {
        expect(await store.read(stranger, scoped.id)).toBeUndefined();
        expect(await store.list(stranger, { limit: 10 })).toEqual({ attachments: [] });
        expect(await store.remove(stranger, scoped.id)).toBe(false);
      }
      expect(await store.read(ADA, "att_000000000000000000000000")).toBeUndefined();
      expect(await store.remove(ADA, "att_000000000000000000000000")).toBe(false);
      // Nothing the strangers tried removed it.
      expect(await readText(ADA, scoped.id)).toBe("for run 1 only");
    });

    it("reads a principal-wide attachment in every run of its uploader, and a run's only in that run", async () => {
      const wide = await add({ tenantId: "acme", principalId: "user:ada" }, "every run", {
        now: Date.now() - 1,
      });
      const scoped = await add(ADA, "run 1", { now: Date.now() });
      expect(wide.runId).toBeUndefined();
      expect(await ids(ADA)).toEqual([scoped.id, wide.id]);
      expect(await ids(ADA_LATER)).toEqual([wide.id]);
      expect(await readText(ADA_LATER, wide.id)).toBe("every run");
      expect(await readText(ADA_LATER, scoped.id)).toBeUndefined();
      // Still not a colleague's, whatever the run.
      expect(await readText(BOB, wide.id)).toBeUndefined();
    });

    it("keeps equal bytes once per tenant as two attachments, and removing one leaves the other whole", async () => {
      const first = await add(ADA, "same bytes", { name: "a.txt" });
      const second = await add(ADA_LATER, "same bytes", { name: "b.txt" });
      const elsewhere = await add(ADA_ELSEWHERE, "same bytes");
      expect(first.id).not.toBe(second.id);
      expect(first.sha256).toBe(second.sha256);
      if (fixture.blobs) {
        expect(await fixture.blobs.count("acme")).toBe(1);
        expect(await fixture.blobs.count("globex")).toBe(1);
      }
      expect(await store.remove(ADA, first.id)).toBe(true);
      expect(await store.remove(ADA, first.id)).toBe(false);
      expect(await readText(ADA_LATER, second.id)).toBe("same bytes");
      if (fixture.blobs) expect(await fixture.blobs.count("acme")).toBe(1);
      expect(await store.remove(ADA_LATER, second.id)).toBe(true);
      if (fixture.blobs) {
        expect(await fixture.blobs.count("acme")).toBe(0);
        expect(await fixture.blobs.count("globex")).toBe(1);
      }
      expect(await readText(ADA_ELSEWHERE, elsewhere.id)).toBe("same bytes");
    });

    it("refuses a file over the cap and a tenant over its quota, naming the limit and keeping nothing", async () => {
      const tooLarge = await store.add(ADA, {
        name: "big.bin",
        mediaType: "application/octet-stream",
        bytes: new Uint8Array(CONFORMANCE_CAPS.bytes + 1),
        now: Date.now(),
      });
      expect(tooLarge).toEqual({ added: false, reason: "too_large", limit: CONFORMANCE_CAPS.bytes });
      // Two principals of one tenant share its quota: 64 + 64 fit in 160, a third 64 does not.
      await add(ADA, "a".repeat(64));
      await add(BOB, "b".repeat(64));
      const over = await store.add(ADA_LATER, {
        name: "c.txt",
        mediaType: "text/plain",
        bytes: text("c".repeat(33)),
        now: Date.now(),
      });
      expect(over).toEqual({ added: false, reason: "quota", limit: CONFORMANCE_CAPS.tenantBytes });
      expect(await ids(ADA_LATER)).toEqual([]);
      if (fixture.blobs) expect(await fixture.blobs.count("acme")).toBe(2);
      // Exactly to the quota fits; another tenant has its own.
      await add(ADA_LATER, "c".repeat(32));
      await add(ADA_ELSEWHERE, "d".repeat(64));
    });

    // Only on PostgreSQL do the two adds overlap: the memory store and in-process SQLite (synchronous) run them
    // one after the other, so there this case holds however the quota is checked. SQLite across processes is
    // src/stores/sqlite/attachments-processes.test.ts.
    it("lets only one of two adds take the last room in the quota (a race on PostgreSQL alone)", async () => {
      await add(ADA, "a".repeat(64));
      const second = fixture.another ? await fixture.another() : store;
      const outcomes = await Promise.all([
        store.add(ADA, {
          name: "x.txt",
          mediaType: "text/plain",
          bytes: text("x".repeat(60)),
          now: Date.now(),
        }),
        second.add(BOB, {
          name: "y.txt",
          mediaType: "text/plain",
          bytes: text("y".repeat(60)),
          now: Date.now(),
        }),
      ]);
      expect(outcomes.filter((outcome) => outcome.added)).toHaveLength(1);
      expect(outcomes.filter((outcome) => !outcome.added && outcome.reason === "quota")).toHaveLength(1);
      expect((await ids(ADA)).length + (await ids(BOB)).length).toBe(2);
    });

    it("refuses a principal past its share of the tenant's quota, in the step that adds, and not the others", async () => {
      // Ada's two runs count alike: the share is of every attachment of the principal.
      const first = await add(ADA, "a".repeat(64));
      await add(ADA_LATER, "b".repeat(64));
      const over = await store.add(ADA, {
        name: "c.txt",
        mediaType: "text/plain",
        bytes: text("c"),
        now: Date.now(),
      });
      expect(over).toEqual({
        added: false,
        reason: "principal_quota",
        limit: CONFORMANCE_CAPS.principalBytes,
      });
      expect(await ids(ADA)).toEqual([first.id]);
      // Bob of the same tenant still has room in the tenant's quota.
      await add(BOB, "d".repeat(32));
    });

    it("refuses a name that is empty, too long, holds a folder or a control character, naming the limit", async () => {
      const refused = [
        "",
        "a".repeat(ATTACHMENT_LIMITS.nameChars + 1),
        "../secret.txt",
        "folder/file.txt",
        "C:\\boot.ini",
        "..",
        "line\nbreak.txt",
        "nul\u0000.txt",
        "bell\u0007.txt",
        "lone\ud800.txt",
      ];
      for (const name of refused) {
        const outcome = await store.add(ADA, {
          name,
          mediaType: "text/plain",
          bytes: text("x"),
          now: Date.now(),
        });
        expect(outcome, JSON.stringify(name)).toEqual({
          added: false,
          reason: "bad_name",
          limit: ATTACHMENT_LIMITS.nameChars,
        });
      }
      expect(await ids(ADA)).toEqual([]);
      // A long name of accented letters and spaces is a plain name.
      const fine = `${"é".repeat(ATTACHMENT_LIMITS.nameChars - 5)} .txt`;
      expect((await add(ADA, "x", { name: fine })).name).toBe(fine);
    });

    it("lists newest first in pages, ties broken by id, and refuses a cursor it did not make", async () => {
      const added: Attachment[] = [];
      for (let index = 0; index < 5; index++)
        added.push(await add(ADA, `file ${index}`, { now: Date.now() + Math.floor(index / 2) }));
      const expected = [...added]
        .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1))
        .map((attachment) => attachment.id);
      const seen: string[] = [];
      let after: string | undefined;
      do {
        const page = await store.list(ADA, { limit: 2, after });
        expect(page.attachments.length).toBeLessThanOrEqual(2);
        seen.push(...page.attachments.map((attachment) => attachment.id));
        after = page.next;
      } while (after !== undefined);
      expect(seen).toEqual(expected);
      await expect(store.list(ADA, { limit: 2, after: "not a cursor" })).rejects.toThrow(RangeError);
    });

    it("answers a forged id as a missing one and refuses a forged cursor, a NUL in either included", async () => {
      const kept = await add(ADA, "kept");
      for (const forged of ["att_\u0000", "\u0000", `${kept.id}\u0000`, kept.id.toUpperCase()]) {
        expect(await store.read(ADA, forged), JSON.stringify(forged)).toBeUndefined();
        expect(await store.remove(ADA, forged), JSON.stringify(forged)).toBe(false);
      }
      for (const after of ["1.\u0000", `${kept.createdAt}.att_\u0000`, "1.x"])
        await expect(store.list(ADA, { limit: 2, after }), JSON.stringify(after)).rejects.toThrow(RangeError);
      expect(await ids(ADA)).toEqual([kept.id]);
    });

    it("hides an expired attachment, and the purge deletes it and the bytes nothing names any more", async () => {
      const now = Date.now();
      const expired = await add(ADA, "old", { now: now - 2 * DAY, retentionMs: DAY });
      const kept = await add(ADA, "shared", { now: now - 2 * DAY, retentionMs: DAY, name: "old.txt" });
      const fresh = await add(ADA, "shared", { now });
      expect(await store.read(ADA, expired.id)).toBeUndefined();
      expect(await ids(ADA)).toEqual([fresh.id]);
      expect(await store.remove(ADA, expired.id)).toBe(false);
      if (fixture.blobs) expect(await fixture.blobs.count("acme")).toBe(2);
      expect(await store.purgeExpired({ now })).toBe(2);
      expect(await store.purgeExpired({ now })).toBe(0);
      // "old" is named by nothing now; "shared" still by the fresh one.
      if (fixture.blobs) expect(await fixture.blobs.count("acme")).toBe(1);
      expect(await readText(ADA, fresh.id)).toBe("shared");
      expect(kept.sha256).toBe(fresh.sha256);
    });

    it("reconciles: deletes bytes nothing names and drops an attachment whose bytes are gone", async () => {
      expect(await store.reconcile()).toEqual({ orphanBlobs: 0, missingBlobs: 0 });
      const blobs = fixture.blobs;
      if (!blobs) return;
      const whole = await add(ADA, "whole");
      const lost = await add(ADA, "lost");
      await blobs.plant("acme", text("left behind by a crash"));
      await blobs.plant("globex", text("another tenant's leftover"));
      await blobs.drop("acme", lost.sha256);
      expect(await blobs.count("acme")).toBe(2);
      expect(await store.reconcile()).toEqual({ orphanBlobs: 2, missingBlobs: 1 });
      expect(await store.reconcile()).toEqual({ orphanBlobs: 0, missingBlobs: 0 });
      expect(await ids(ADA)).toEqual([whole.id]);
      expect(await readText(ADA, whole.id)).toBe("whole");
      expect(await blobs.count("acme")).toBe(1);
      expect(await blobs.count("globex")).toBe(0);
    });

    it("keeps attachments and their bytes across a reopen", async () => {
      if (!fixture.reopen) return;
      const wide = await add({ tenantId: "acme", principalId: "user:ada" }, "kept");
      const reopened = await fixture.reopen();
      expect(await readText(ADA_LATER, wide.id, reopened)).toBe("kept");
      expect(await ids(ADA, reopened)).toEqual([wide.id]);
      expect(await reopened.reconcile()).toEqual({ orphanBlobs: 0, missingBlobs: 0 });
    });
  });
}
