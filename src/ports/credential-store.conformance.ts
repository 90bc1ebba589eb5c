/**
 * @module The one conformance suite every CredentialStore adapter runs (memory, SQLite; PostgreSQL through
 * the same call): scoping by tenant and principal, metadata without secrets, compare-and-set refreshes,
 * revocation that erases (and, given a version, gives up only that one).
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CredentialStore, NewCredential } from "./credential-store.js";

export interface CredentialStoreFixture {
  store: CredentialStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<CredentialStore>;
  cleanup(): Promise<void>;
}

const A = "tenant-a";
const B = "tenant-b";
const ACCESS = "gho_access_0123456789abcdef";
const REFRESH = "ghr_refresh_fedcba9876543210";

const credentialOf = (overrides: Partial<NewCredential> = {}): NewCredential => ({
  tenantId: A,
  principalId: "alice",
  ref: "github",
  kind: "oauth",
  provider: "github",
  scopes: ["repo", "read:org"],
  account: "alice-gh",
  expiresAt: 10_000,
  secrets: { accessToken: ACCESS, refreshToken: REFRESH },
  connectedBy: "alice",
  at: 1_000,
  ...overrides,
});

/** Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. */
export function runCredentialStoreConformance(
  name: string,
  factory: () => Promise<CredentialStoreFixture>,
): void {
  describe(`${name} credential store conformance`, () => {
    let fixture: CredentialStoreFixture;
    let store: CredentialStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it("stores a credential and gives its secrets back to get only", async () => {
      const metadata = await store.put(credentialOf());
      expect(metadata).toEqual({
        tenantId: A,
        principalId: "alice",
        ref: "github",
        kind: "oauth",
        provider: "github",
        scopes: ["repo", "read:org"],
        account: "alice-gh",
        expiresAt: 10_000,
        hasRefreshToken: true,
        version: 1,
        connectedBy: "alice",
        createdAt: 1_000,
        updatedAt: 1_000,
        revokedAt: undefined,
        revokedReason: undefined,
      });
      expect(await store.get({ tenantId: A, principalId: "alice", ref: "github" })).toEqual({
        ...metadata,
        secrets: { accessToken: ACCESS, refreshToken: REFRESH },
      });
      const listed = await store.list({ tenantId: A });
      expect(listed).toEqual([metadata]);
      // Not a field, not a value anywhere in what a listing holds.
      expect(JSON.stringify(listed)).not.toContain(ACCESS);
      expect(JSON.stringify(listed)).not.toContain(REFRESH);
      expect(listed[0]).not.toHaveProperty("secrets");
    });

    it("keeps a token without expiry, refresh token or account as such", async () => {
      await store.put(
        credentialOf({
          kind: "token",
          scopes: undefined,
          account: undefined,
          expiresAt: undefined,
          secrets: { accessToken: ACCESS },
        }),
      );
      expect(await store.get({ tenantId: A, principalId: "alice", ref: "github" })).toMatchObject({
        kind: "token",
        scopes: [],
        account: undefined,
        expiresAt: undefined,
        hasRefreshToken: false,
        secrets: { accessToken: ACCESS },
      });
    });

    it("finds a credential by tenant, principal and ref exactly, never across them", async () => {
      await store.put(credentialOf());
      await store.put(
        credentialOf({ principalId: undefined, secrets: { accessToken: "tenant-wide" }, connectedBy: "ops" }),
      );
      await store.put(credentialOf({ tenantId: B, secrets: { accessToken: "other-tenant" } }));
      const secretOf = async (key: { tenantId: string; principalId?: string; ref: string }) =>
        (await store.get(key))?.secrets?.accessToken;
      expect(await secretOf({ tenantId: A, principalId: "alice", ref: "github" })).toBe(ACCESS);
      expect(await secretOf({ tenantId: A, ref: "github" })).toBe("tenant-wide");
      expect(await secretOf({ tenantId: B, principalId: "alice", ref: "github" })).toBe("other-tenant");
      // No fallback inside the store: finding the tenant's credential for a principal is the resolver's.
      expect(await store.get({ tenantId: A, principalId: "bob", ref: "github" })).toBeUndefined();
      expect(await store.get({ tenantId: B, ref: "github" })).toBeUndefined();
      expect(await store.get({ tenantId: A, principalId: "alice", ref: "slack" })).toBeUndefined();

      expect((await store.list({ tenantId: A })).map((c) => c.principalId)).toEqual([undefined, "alice"]);
      expect((await store.list({ tenantId: A, principalId: null })).map((c) => c.connectedBy)).toEqual([
        "ops",
      ]);
      expect((await store.list({ tenantId: A, principalId: "alice" })).map((c) => c.principalId)).toEqual([
        "alice",
      ]);
      expect(await store.list({ tenantId: A, ref: "slack" })).toEqual([]);
      expect(await store.list({ tenantId: "tenant-c" })).toEqual([]);
    });

    it("lists by ref, then principal", async () => {
      await store.put(credentialOf({ ref: "slack", provider: "slack" }));
      await store.put(credentialOf({ principalId: "bob" }));
      await store.put(credentialOf());
      await store.put(credentialOf({ principalId: undefined }));
      expect((await store.list({ tenantId: A })).map((c) => `${c.ref}/${c.principalId ?? "-"}`)).toEqual([
        "github/-",
        "github/alice",
        "github/bob",
        "slack/alice",
      ]);
    });

    it("replaces a credential stored again, keeping when it was first made", async () => {
      await store.put(credentialOf());
      const replaced = await store.put(
        credentialOf({ kind: "token", secrets: { accessToken: "pat" }, scopes: [], at: 5_000 }),
      );
      expect(replaced).toMatchObject({ version: 2, createdAt: 1_000, updatedAt: 5_000, kind: "token" });
      expect(await store.get({ tenantId: A, principalId: "alice", ref: "github" })).toMatchObject({
        hasRefreshToken: false,
        secrets: { accessToken: "pat" },
      });
    });

    it("stores a refresh only over the version it read", async () => {
      const first = await store.put(credentialOf());
      const key = { tenantId: A, principalId: "alice", ref: "github" };
      const refreshed = { accessToken: "new-access", refreshToken: "new-refresh" };
      expect(
        await store.update({
          ...key,
          version: first.version,
          secrets: refreshed,
          expiresAt: 20_000,
          at: 9_000,
        }),
      ).toBe(true);
      // A second refresh that read the same version lost the race: its tokens are not stored.
      expect(
        await store.update({
          ...key,
          version: first.version,
          secrets: { accessToken: "stale" },
          expiresAt: 30_000,
          at: 9_001,
        }),
      ).toBe(false);
      expect(await store.get(key)).toMatchObject({
        version: first.version + 1,
        expiresAt: 20_000,
        updatedAt: 9_000,
        scopes: ["repo", "read:org"],
        secrets: refreshed,
      });
      expect(
        await store.update({
          ...key,
          version: first.version + 1,
          secrets: { accessToken: "narrower" },
          expiresAt: undefined,
          scopes: ["repo"],
          at: 9_500,
        }),
      ).toBe(true);
      expect(await store.get(key)).toMatchObject({
        scopes: ["repo"],
        expiresAt: undefined,
        hasRefreshToken: false,
        secrets: { accessToken: "narrower" },
      });
      expect(
        await store.update({ ...key, ref: "missing", version: 1, secrets: refreshed, expiresAt: 1, at: 1 }),
      ).toBe(false);
    });

    it("revokes once, erasing the secrets and keeping the metadata", async () => {
      await store.put(credentialOf());
      const key = { tenantId: A, principalId: "alice", ref: "github" };
      expect(await store.revoke({ ...key, at: 7_000, reason: "revoked by alice" })).toBe(true);
      expect(await store.revoke({ ...key, at: 7_001, reason: "again" })).toBe(false);
      expect(
        await store.revoke({ tenantId: B, principalId: "alice", ref: "github", at: 1, reason: "x" }),
      ).toBe(false);
      const revoked = await store.get(key);
      expect(revoked).toMatchObject({
        revokedAt: 7_000,
        revokedReason: "revoked by alice",
        hasRefreshToken: false,
        secrets: undefined,
      });
      // A refresh racing the revocation does not bring the secret back.
      expect(
        await store.update({
          ...key,
          version: revoked?.version ?? 0,
          secrets: { accessToken: "late" },
          expiresAt: undefined,
          at: 7_002,
        }),
      ).toBe(false);
      expect((await store.get(key))?.secrets).toBeUndefined();
      // Connecting again is a fresh credential.
      await store.put(credentialOf({ at: 8_000 }));
      expect(await store.get(key)).toMatchObject({ revokedAt: undefined, secrets: { accessToken: ACCESS } });
    });

    it("revokes only the version it is given, not a credential stored since", async () => {
      const refused = await store.put(credentialOf());
      const key = { tenantId: A, principalId: "alice", ref: "github" };
      // The user reconnected after the refused token was sent: the new one stays.
      await store.put(credentialOf({ secrets: { accessToken: "reconnected" }, at: 2_000 }));
      expect(
        await store.revoke({ ...key, version: refused.version, at: 3_000, reason: "vendor answered 401" }),
      ).toBe(false);
      const current = await store.get(key);
      expect(current).toMatchObject({
        version: refused.version + 1,
        revokedAt: undefined,
        secrets: { accessToken: "reconnected" },
      });
      expect(
        await store.revoke({ ...key, version: current?.version, at: 4_000, reason: "vendor answered 401" }),
      ).toBe(true);
      expect(await store.get(key)).toMatchObject({ revokedAt: 4_000, secrets: undefined });
    });

    it("refuses what no store should keep", async () => {
      await expect(store.put(credentialOf({ ref: "" }))).rejects.toThrow(/ref/);
      await expect(store.put(credentialOf({ ref: "has space" }))).rejects.toThrow(/ref/);
      await expect(store.put(credentialOf({ kind: "password" as "token" }))).rejects.toThrow(/kind/);
      await expect(store.put(credentialOf({ secrets: { accessToken: "" } }))).rejects.toThrow(/secret/);
      expect(await store.list({ tenantId: A })).toEqual([]);
    });

    it("keeps what it stored across a reopen, where the adapter is durable", async (context) => {
      if (!fixture.reopen) {
        context.skip();
        return;
      }
      await store.put(credentialOf());
      const reopened = await fixture.reopen();
      expect(await reopened.get({ tenantId: A, principalId: "alice", ref: "github" })).toMatchObject({
        version: 1,
        secrets: { accessToken: ACCESS, refreshToken: REFRESH },
      });
    });
  });
}
