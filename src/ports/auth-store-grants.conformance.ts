/**
 * @module The part of the auth store's conformance suite that OAuth grants rely on (run by
 * runAuthStoreConformance for every adapter): keys that expire and are renewed, one-time codes and refresh
 * tokens bound to a key and a payload, ended with their key, and dynamically registered clients.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { AuthStore, AuthStoreOptions } from "./auth-store.js";
import type { AuthStoreFixture } from "./auth-store-fixture.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const sha256 = (text: string) => createHash("sha256").update(text).digest();

export function runAuthStoreGrantConformance(
  name: string,
  factory: (options: AuthStoreOptions) => Promise<AuthStoreFixture>,
): void {
  describe(`${name} auth store conformance: OAuth grants`, () => {
    const fixtures: AuthStoreFixture[] = [];
    const others: AuthStore[] = [];
    afterEach(async () => {
      for (const other of others.splice(0)) await other.close();
      for (const fixture of fixtures.splice(0)) await fixture.cleanup();
    });

    async function withKey() {
      const time = { now: 1_700_000_000_000 };
      const fixture = await factory({ clock: () => time.now });
      fixtures.push(fixture);
      const { store } = fixture;
      const { key, record } = await store.createKey({
        tenantId: "acme",
        principalId: "ops",
        scopes: ["crm.read"],
      });
      const open = async () => {
        const other = await fixture.open();
        others.push(other);
        return other;
      };
      return { ...fixture, store, time, open, key, keyId: record.id };
    }

    describe("expiring keys", () => {
      it("verifies an expiring key until its end, and lists the end", async () => {
        const { store, time } = await withKey();
        const { key, record } = await store.createKey({
          tenantId: "acme",
          principalId: "ops",
          expiresAt: time.now + HOUR,
        });
        expect(record.expiresAt).toBe(time.now + HOUR);
        expect((await store.listKeys()).find((listed) => listed.id === record.id)?.expiresAt).toBe(
          time.now + HOUR,
        );
        time.now += HOUR - 1;
        expect(await store.verifyKey(key)).toMatchObject({ keyId: record.id });
        time.now += 1;
        expect(await store.verifyKey(key)).toBeUndefined();
      });

      it("renews a key with a new secret and end; the old secret stops at once", async () => {
        const { store, time, key, keyId } = await withKey();
        time.now += 2 * HOUR;
        const renewed = await store.renewKey(keyId, time.now + HOUR);
        expect(renewed).toMatch(new RegExp(`^trk_${keyId}_`));
        expect(await store.verifyKey(key)).toBeUndefined();
        expect(await store.verifyKey(renewed!)).toMatchObject({
          keyId,
          tenantId: "acme",
          scopes: ["crm.read"],
        });
        time.now += HOUR;
        expect(await store.verifyKey(renewed!)).toBeUndefined();
      });

      it("renews no revoked, unknown or malformed key", async () => {
        const { store, time, keyId } = await withKey();
        expect(await store.renewKey("0".repeat(20), time.now + HOUR)).toBeUndefined();
        expect(await store.renewKey("not a key id", time.now + HOUR)).toBeUndefined();
        await store.revokeKey(keyId);
        expect(await store.renewKey(keyId, time.now + HOUR)).toBeUndefined();
      });

      it("refuses an expiry that is not a positive whole number, by name", async () => {
        const { store } = await withKey();
        await expect(
          store.createKey({ tenantId: "acme", principalId: "ops", expiresAt: 1.5 }),
        ).rejects.toThrow(/expiresAt/);
      });
    });

    describe("grant tokens", () => {
      it("redeems a code once, as its key's caller with its payload, and keeps only its hash", async () => {
        const { store, keyId, rows } = await withKey();
        const token = await store.createGrantToken({
          kind: "code",
          keyId,
          payload: '{"a":1}',
          ttlMs: MINUTE,
        });
        const stored = await rows("auth_grant_tokens");
        expect(stored).toHaveLength(1);
        expect(Buffer.from(stored[0]!.token_hash as Uint8Array).equals(sha256(token))).toBe(true);
        expect(JSON.stringify(stored)).not.toContain(token);
        const redeemed = await store.redeemGrantToken("code", token);
        expect(redeemed).toEqual({
          caller: expect.objectContaining({
            keyId,
            tenantId: "acme",
            principalId: "ops",
            scopes: ["crm.read"],
          }),
          payload: '{"a":1}',
        });
        expect(Object.isFrozen(redeemed?.caller)).toBe(true);
        expect(await store.redeemGrantToken("code", token)).toBeUndefined();
      });

      it("redeems a token only as its own kind, and nothing malformed or unknown", async () => {
        const { store, keyId } = await withKey();
        const token = await store.createGrantToken({ kind: "refresh", keyId, payload: "{}", ttlMs: MINUTE });
        expect(await store.redeemGrantToken("code", token)).toBeUndefined();
        expect(await store.redeemGrantToken("refresh", "short")).toBeUndefined();
        expect(await store.redeemGrantToken("refresh", "A".repeat(43))).toBeUndefined();
        expect(await store.redeemGrantToken("refresh", token)).toMatchObject({ payload: "{}" });
      });

      it("redeems nothing past its time, but a refresh token outlives its key's expiry", async () => {
        const { store, time } = await withKey();
        const { record } = await store.createKey({
          tenantId: "acme",
          principalId: "ops",
          expiresAt: time.now + MINUTE,
        });
        const code = await store.createGrantToken({
          kind: "code",
          keyId: record.id,
          payload: "{}",
          ttlMs: MINUTE,
        });
        const refresh = await store.createGrantToken({
          kind: "refresh",
          keyId: record.id,
          payload: "{}",
          ttlMs: HOUR,
        });
        time.now += MINUTE;
        expect(await store.redeemGrantToken("code", code)).toBeUndefined();
        expect(await store.redeemGrantToken("refresh", refresh)).toMatchObject({
          caller: { keyId: record.id },
        });
      });

      it("ends a key's grant tokens when it is revoked, and makes none for a revoked or unknown key", async () => {
        const { store, keyId, rows } = await withKey();
        const token = await store.createGrantToken({ kind: "refresh", keyId, payload: "{}", ttlMs: HOUR });
        expect(await store.revokeKey(keyId)).toBe(true);
        expect(await rows("auth_grant_tokens")).toHaveLength(0);
        expect(await store.redeemGrantToken("refresh", token)).toBeUndefined();
        await expect(
          store.createGrantToken({ kind: "code", keyId, payload: "{}", ttlMs: MINUTE }),
        ).rejects.toThrow();
        await expect(
          store.createGrantToken({ kind: "code", keyId: "0".repeat(20), payload: "{}", ttlMs: MINUTE }),
        ).rejects.toThrow();
        await expect(
          store.createGrantToken({ kind: "code", keyId, payload: "{}", ttlMs: 0 }),
        ).rejects.toThrow(/ttlMs/);
      });

      it("tells a spent token's key until the token's end, and nothing for one unspent, unknown or revoked", async () => {
        const { store, time, keyId, open } = await withKey();
        const token = await store.createGrantToken({ kind: "refresh", keyId, payload: "{}", ttlMs: HOUR });
        expect(await store.spentGrantToken("refresh", token)).toBeUndefined();
        await store.redeemGrantToken("refresh", token);
        // Issuing the next token purges what has ended, not what was spent.
        await store.createGrantToken({ kind: "refresh", keyId, payload: "{}", ttlMs: HOUR });
        expect(await (await open()).spentGrantToken("refresh", token)).toBe(keyId);
        expect(await store.spentGrantToken("code", token)).toBeUndefined();
        expect(await store.spentGrantToken("refresh", "A".repeat(43))).toBeUndefined();
        expect(await store.spentGrantToken("refresh", "short")).toBeUndefined();
        time.now += HOUR;
        expect(await store.spentGrantToken("refresh", token)).toBeUndefined();
        const later = await store.createGrantToken({ kind: "refresh", keyId, payload: "{}", ttlMs: HOUR });
        await store.redeemGrantToken("refresh", later);
        await store.revokeKey(keyId);
        expect(await store.spentGrantToken("refresh", later)).toBeUndefined();
      });

      it("gives one redeem of a token that two connections race for", async () => {
        const { store, keyId, open } = await withKey();
        const other = await open();
        const tokens = await Promise.all(
          Array.from({ length: 20 }, () =>
            store.createGrantToken({ kind: "code", keyId, payload: "{}", ttlMs: MINUTE }),
          ),
        );
        const redeemed = await Promise.all(
          tokens.flatMap((token) => [
            store.redeemGrantToken("code", token),
            other.redeemGrantToken("code", token),
          ]),
        );
        expect(redeemed.filter(Boolean)).toHaveLength(20);
      });
    });

    describe("clients", () => {
      it("registers a client under a new id that another connection reads back", async () => {
        const { store, time, open } = await withKey();
        const first = await store.registerClient('{"client_name":"one"}');
        const second = await store.registerClient('{"client_name":"two"}');
        expect(first).toEqual({
          clientId: expect.stringMatching(/^[0-9a-f]{32}$/),
          metadata: '{"client_name":"one"}',
          createdAt: time.now,
        });
        expect(second.clientId).not.toBe(first.clientId);
        expect(await (await open()).client(first.clientId)).toEqual(first);
      });

      it("finds no unknown or malformed client id", async () => {
        const { store } = await withKey();
        expect(await store.client("0".repeat(32))).toBeUndefined();
        expect(await store.client("'; DROP TABLE auth_oauth_clients; --")).toBeUndefined();
      });

      it("prunes clients never used once they are old, keeps used ones, and counts those left unused", async () => {
        const { store, time, open } = await withKey();
        const used = await store.registerClient("{}");
        const unused = await store.registerClient("{}");
        time.now += HOUR;
        const young = await store.registerClient("{}");
        expect(await store.pruneUnusedClients(time.now - HOUR)).toBe(3);
        await (await open()).markClientUsed(used.clientId);
        await store.markClientUsed("0".repeat(32));
        await store.markClientUsed("not an id");
        expect(await store.pruneUnusedClients(time.now - HOUR + 1)).toBe(1);
        expect(await store.client(used.clientId)).toEqual(used);
        expect(await store.client(unused.clientId)).toBeUndefined();
        expect(await store.client(young.clientId)).toEqual(young);
      });
    });
  });
}
