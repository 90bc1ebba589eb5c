/**
 * @module The one conformance suite every ArtifactStore adapter runs (file, PostgreSQL): content addressing,
 * idempotent puts, lookups scoped to the tenant and the name, names that are plain file names only, and
 * provenance kept with the bytes, never made trusted by another put of them.
 */
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ArtifactInput, ArtifactStore } from "./artifact-store.js";

export interface ArtifactStoreFixture {
  store: ArtifactStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<ArtifactStore>;
  cleanup(): Promise<void>;
}

const A = "tenant-a";
const B = "tenant/b:with-separators";
// Every byte value, so a text round trip anywhere would show.
const BYTES = Uint8Array.from({ length: 512 }, (_, index) => index % 256);
const ID = createHash("sha256").update(BYTES).digest("hex");
const UNTRUSTED = { source: "mcp:up/fetch", trusted: false };
const TRUSTED = { source: "package:reports", trusted: true };

const bytesAt = (stored: { bytes: Uint8Array } | undefined) => Buffer.from(stored?.bytes ?? []);

const inputOf = (overrides: Partial<ArtifactInput> = {}): ArtifactInput => ({
  tenantId: A,
  name: "report.pdf",
  mediaType: "application/pdf",
  bytes: BYTES,
  ...overrides,
});

/** Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. */
export function runArtifactStoreConformance(
  name: string,
  factory: () => Promise<ArtifactStoreFixture>,
): void {
  describe(`${name} artifact store conformance`, () => {
    let fixture: ArtifactStoreFixture;
    let store: ArtifactStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("addresses an artifact by the sha256 of its bytes and gives the bytes back", async () => {
      expect(await store.put(inputOf())).toEqual({
        id: ID,
        name: "report.pdf",
        mediaType: "application/pdf",
        size: 512,
        uri: `artifact://${ID}/report.pdf`,
      });
      const got = await store.get({ tenantId: A, id: ID, name: "report.pdf" });
      expect(got?.bytes).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(got?.bytes ?? []).equals(Buffer.from(BYTES))).toBe(true);
      // Put without a provenance (a first-party file), it is read back without one.
      expect(got?.provenance).toBeUndefined();
    });

    it("stores the same bytes again as the same artifact, and other bytes as another", async () => {
      const first = await store.put(inputOf());
      expect(await store.put(inputOf())).toEqual(first);
      const other = await store.put(inputOf({ bytes: new TextEncoder().encode("other") }));
      expect(other.id).not.toBe(first.id);
      expect(bytesAt(await store.get({ tenantId: A, id: ID, name: "report.pdf" }))).toEqual(
        Buffer.from(BYTES),
      );
      expect(
        new TextDecoder().decode((await store.get({ tenantId: A, id: other.id, name: "report.pdf" }))?.bytes),
      ).toBe("other");
    });

    it("keeps an empty file", async () => {
      const empty = await store.put(inputOf({ name: "empty.txt", bytes: new Uint8Array() }));
      expect(empty.size).toBe(0);
      expect(await store.get({ tenantId: A, id: empty.id, name: "empty.txt" })).toEqual({
        bytes: new Uint8Array(),
      });
    });

    it("finds an artifact only for its tenant and under its name", async () => {
      await store.put(inputOf());
      expect(await store.get({ tenantId: B, id: ID, name: "report.pdf" })).toBeUndefined();
      expect(await store.get({ tenantId: A, id: ID, name: "other.pdf" })).toBeUndefined();
      expect(await store.get({ tenantId: A, id: "0".repeat(64), name: "report.pdf" })).toBeUndefined();
      // The same bytes put by another tenant are that tenant's, under the same id.
      expect((await store.put(inputOf({ tenantId: B }))).id).toBe(ID);
      expect(await store.get({ tenantId: B, id: ID, name: "report.pdf" })).toBeDefined();
    });

    it("refuses a name that is not a plain file name, and finds nothing by one", async () => {
      for (const name of ["", "../escape", "a/b", ".hidden", "a..b", "x".repeat(101)]) {
        await expect(store.put(inputOf({ name }))).rejects.toThrow(/plain file name/);
      }
      await store.put(inputOf());
      expect(await store.get({ tenantId: A, id: ID, name: "../report.pdf" })).toBeUndefined();
      expect(await store.get({ tenantId: A, id: `../${ID}`, name: "report.pdf" })).toBeUndefined();
      expect(await store.get({ tenantId: A, id: ID.toUpperCase(), name: "report.pdf" })).toBeUndefined();
    });

    it("keeps what it stored across a reopen, where the adapter is durable", async (context) => {
      if (!fixture.reopen) {
        context.skip();
        return;
      }
      await store.put(inputOf());
      await store.put(inputOf({ name: "page.txt", provenance: UNTRUSTED }));
      const reopened = await fixture.reopen();
      expect(bytesAt(await reopened.get({ tenantId: A, id: ID, name: "report.pdf" }))).toEqual(
        Buffer.from(BYTES),
      );
      expect((await reopened.get({ tenantId: A, id: ID, name: "page.txt" }))?.provenance).toEqual(UNTRUSTED);
    });

    it("gives back the provenance the bytes were put with", async () => {
      await store.put(inputOf({ name: "page.txt", provenance: UNTRUSTED }));
      await store.put(inputOf({ name: "notes.txt", provenance: TRUSTED }));
      const page = await store.get({ tenantId: A, id: ID, name: "page.txt" });
      expect(page?.provenance).toEqual(UNTRUSTED);
      expect(bytesAt(page)).toEqual(Buffer.from(BYTES));
      expect((await store.get({ tenantId: A, id: ID, name: "notes.txt" }))?.provenance).toEqual(TRUSTED);
      // Per tenant, as the bytes are.
      await store.put(inputOf({ tenantId: B, name: "page.txt" }));
      expect((await store.get({ tenantId: B, id: ID, name: "page.txt" }))?.provenance).toBeUndefined();
    });

    it("keeps the same bytes untrusted once any put of them was, whatever came before or after", async () => {
      // Untrusted after first-party or trusted: untrusted.
      await store.put(inputOf({ name: "a.txt" }));
      await store.put(inputOf({ name: "a.txt", provenance: UNTRUSTED }));
      await store.put(inputOf({ name: "b.txt", provenance: TRUSTED }));
      await store.put(inputOf({ name: "b.txt", provenance: UNTRUSTED }));
      // First-party, trusted or another untrusted source after untrusted: still the first untrusted one.
      await store.put(inputOf({ name: "c.txt", provenance: UNTRUSTED }));
      await store.put(inputOf({ name: "c.txt" }));
      await store.put(inputOf({ name: "c.txt", provenance: TRUSTED }));
      await store.put(inputOf({ name: "c.txt", provenance: { source: "mcp:other/tool", trusted: false } }));
      for (const name of ["a.txt", "b.txt", "c.txt"]) {
        expect((await store.get({ tenantId: A, id: ID, name }))?.provenance, name).toEqual(UNTRUSTED);
      }
      // A trusted source fills in none, and is kept over a later first-party put.
      await store.put(inputOf({ name: "d.txt" }));
      await store.put(inputOf({ name: "d.txt", provenance: TRUSTED }));
      await store.put(inputOf({ name: "d.txt" }));
      expect((await store.get({ tenantId: A, id: ID, name: "d.txt" }))?.provenance).toEqual(TRUSTED);
    });

    it("never reads untrusted bytes back as trusted while puts of them race", async () => {
      // Untrusted puts and reads together: whatever read finds the bytes finds them untrusted.
      const untrusted = Array.from({ length: 8 }, () =>
        store.put(inputOf({ name: "race.txt", provenance: UNTRUSTED })),
      );
      const reads = Array.from({ length: 8 }, () => store.get({ tenantId: A, id: ID, name: "race.txt" }));
      await Promise.all(untrusted);
      for (const read of await Promise.all(reads)) if (read) expect(read.provenance).toEqual(UNTRUSTED);
      // Trusted and first-party puts racing untrusted ones leave the bytes untrusted.
      await Promise.all(
        Array.from({ length: 12 }, (_, index) =>
          store.put(
            inputOf({
              name: "mixed.txt",
              ...([{ provenance: UNTRUSTED }, { provenance: TRUSTED }, {}][index % 3] ?? {}),
            }),
          ),
        ),
      );
      expect((await store.get({ tenantId: A, id: ID, name: "mixed.txt" }))?.provenance).toEqual(UNTRUSTED);
    });
  });
}
