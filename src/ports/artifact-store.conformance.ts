/**
 * @module The one conformance suite every ArtifactStore adapter runs (file, PostgreSQL): content addressing,
 * idempotent puts, lookups scoped to the tenant and the name, and names that are plain file names only.
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
      expect(got).toBeInstanceOf(Uint8Array);
      expect(Buffer.from(got as Uint8Array).equals(Buffer.from(BYTES))).toBe(true);
    });

    it("stores the same bytes again as the same artifact, and other bytes as another", async () => {
      const first = await store.put(inputOf());
      expect(await store.put(inputOf())).toEqual(first);
      const other = await store.put(inputOf({ bytes: new TextEncoder().encode("other") }));
      expect(other.id).not.toBe(first.id);
      expect(Buffer.from((await store.get({ tenantId: A, id: ID, name: "report.pdf" })) ?? [])).toEqual(
        Buffer.from(BYTES),
      );
      expect(
        new TextDecoder().decode(await store.get({ tenantId: A, id: other.id, name: "report.pdf" })),
      ).toBe("other");
    });

    it("keeps an empty file", async () => {
      const empty = await store.put(inputOf({ name: "empty.txt", bytes: new Uint8Array() }));
      expect(empty.size).toBe(0);
      expect(await store.get({ tenantId: A, id: empty.id, name: "empty.txt" })).toEqual(new Uint8Array());
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
      const reopened = await fixture.reopen();
      expect(Buffer.from((await reopened.get({ tenantId: A, id: ID, name: "report.pdf" })) ?? [])).toEqual(
        Buffer.from(BYTES),
      );
    });
  });
}
