/**
 * @module The one conformance suite every AuthStore adapter runs (SQLite, PostgreSQL): keys kept as hashes and
 * verified as frozen callers, revocation that ends sessions and login tokens, one redeem per login token
 * across connections, expiry by the store's clock, and input refused by name.
 */
import { createHash } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import type { AuthStore, AuthStoreOptions } from "./auth-store.js";
import type { AuthStoreFixture, AuthTable } from "./auth-store-fixture.js";
import { runAuthStoreGrantConformance } from "./auth-store-grants.conformance.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/**
 * Registers the suite for one adapter; `factory` opens a fresh, empty store with the given options (the
 * suite's clock among them) and rejects options the port refuses.
 */
export function runAuthStoreConformance(
  name: string,
  factory: (options: AuthStoreOptions) => Promise<AuthStoreFixture>,
): void {
  describe(`${name} auth store conformance`, () => {
    const fixtures: AuthStoreFixture[] = [];
    const others: AuthStore[] = [];
    afterEach(async () => {
      for (const other of others.splice(0)) await other.close();
      for (const fixture of fixtures.splice(0)) await fixture.cleanup();
    });

    async function setup(options: { sessionTtlMs?: number } = {}) {
      const time = { now: 1_700_000_000_000 };
      const fixture = await factory({ ...options, clock: () => time.now });
      fixtures.push(fixture);
      const open = async () => {
        const other = await fixture.open();
        others.push(other);
        return other;
      };
      const count = async (table: AuthTable) => (await fixture.rows(table)).length;
      return { ...fixture, time, open, count };
    }

    async function withKey(options: { sessionTtlMs?: number } = {}) {
      const context = await setup(options);
      const { key, record } = await context.store.createKey({
        tenantId: "acme",
        principalId: "ops",
        operator: true,
      });
      return { ...context, key, keyId: record.id };
    }

    async function login(store: AuthStore, keyId: string) {
      const redeemed = await store.redeemLoginToken(await store.createLoginToken(keyId));
      if (!redeemed) throw new Error("a fresh login token did not redeem");
      return redeemed;
    }

    describe("api keys", () => {
      it("verifies a created key as its caller, frozen", async () => {
        const { store, time } = await setup();
        const { key, record } = await store.createKey({
          tenantId: "acme",
          principalId: "agent:support",
          scopes: ["crm.read", "mail:send"],
          mode: "gated",
          operator: true,
          label: "support bot",
        });
        expect(record).toEqual({
          id: expect.stringMatching(/^[0-9a-f]{20}$/),
          tenantId: "acme",
          principalId: "agent:support",
          scopes: ["crm.read", "mail:send"],
          mode: "gated",
          operator: true,
          label: "support bot",
          createdAt: time.now,
          revokedAt: undefined,
        });
        expect(key.startsWith(`trk_${record.id}_`)).toBe(true);
        const caller = await store.verifyKey(key);
        expect(caller).toEqual({
          keyId: record.id,
          tenantId: "acme",
          principalId: "agent:support",
          scopes: ["crm.read", "mail:send"],
          mode: "gated",
          operator: true,
        });
        expect(Object.isFrozen(caller)).toBe(true);
        expect(Object.isFrozen(caller?.scopes)).toBe(true);
      });

      it("defaults to an active, non-operator key with no scopes", async () => {
        const { store } = await setup();
        const { key } = await store.createKey({ tenantId: "acme", principalId: "agent" });
        expect(await store.verifyKey(key)).toMatchObject({ scopes: [], mode: "active", operator: false });
      });

      it("refuses a wrong secret, a wrong id and malformed keys without throwing", async () => {
        const { store } = await setup();
        const { key, record } = await store.createKey({ tenantId: "acme", principalId: "agent" });
        const other = await store.createKey({ tenantId: "acme", principalId: "agent" });
        const secret = key.slice(`trk_${record.id}_`.length);
        const otherSecret = other.key.slice(`trk_${other.record.id}_`.length);
        const flipped = `${secret.slice(0, -1)}${secret.endsWith("A") ? "B" : "A"}`;
        for (const presented of [
          `trk_${record.id}_${flipped}`,
          `trk_${record.id}_${otherSecret}`,
          `trk_${"0".repeat(20)}_${secret}`,
          `trk_${record.id}`,
          "",
          "trk_",
          `${key} `,
          key.toUpperCase(),
          "x".repeat(10_000),
          "trk_'; DROP TABLE auth_keys; --",
          undefined as unknown as string,
        ])
          expect(await store.verifyKey(presented), presented).toBeUndefined();
        expect((await store.verifyKey(key))?.keyId).toBe(record.id);
      });

      it("stores only the hash of the secret", async () => {
        const { store, rows } = await setup();
        const { key, record } = await store.createKey({
          tenantId: "acme",
          principalId: "agent",
          label: "ci",
        });
        const secret = key.slice(`trk_${record.id}_`.length);
        const [row] = await rows("auth_keys");
        expect(Buffer.from(row?.secret_hash as Uint8Array)).toEqual(sha256(secret));
        for (const value of Object.values(row ?? {})) {
          const text = Buffer.isBuffer(value) ? value.toString("latin1") : String(value);
          expect(text).not.toContain(secret);
          expect(text).not.toContain(Buffer.from(secret, "base64url").toString("latin1"));
        }
      });

      it("lists keys, all or one tenant's, oldest first, with revocations", async () => {
        const { store, time } = await setup();
        const first = (await store.createKey({ tenantId: "acme", principalId: "a" })).record;
        time.now += 1;
        const second = (await store.createKey({ tenantId: "globex", principalId: "b" })).record;
        time.now += 1;
        const third = (await store.createKey({ tenantId: "acme", principalId: "c" })).record;
        await store.revokeKey(third.id);
        expect((await store.listKeys()).map((key) => key.id)).toEqual([first.id, second.id, third.id]);
        expect(await store.listKeys({ tenantId: "acme" })).toEqual([
          first,
          { ...third, revokedAt: time.now },
        ]);
        expect(await store.listKeys({ tenantId: "globex" })).toEqual([second]);
        expect(await store.listKeys({ tenantId: "initech" })).toEqual([]);
      });

      it("revokes a key once, after which it no longer verifies, on any connection", async () => {
        const { store, open } = await setup();
        const other = await open();
        const { key, record } = await store.createKey({ tenantId: "acme", principalId: "agent" });
        expect((await other.verifyKey(key))?.keyId).toBe(record.id);
        expect(await other.revokeKey(record.id)).toBe(true);
        expect(await store.verifyKey(key)).toBeUndefined();
        expect(await store.revokeKey(record.id)).toBe(false);
        expect(await store.revokeKey("no-such-key")).toBe(false);
      });

      it("has keys once any was created, revoked ones included", async () => {
        const { store } = await setup();
        expect(await store.hasKeys()).toBe(false);
        const { record } = await store.createKey({ tenantId: "acme", principalId: "agent" });
        expect(await store.hasKeys()).toBe(true);
        await store.revokeKey(record.id);
        expect(await store.hasKeys()).toBe(true);
      });

      it("refuses invalid input, naming the field, and stores nothing", async () => {
        const { store } = await setup();
        await expect(store.createKey({ tenantId: "no spaces", principalId: "agent" })).rejects.toThrow(
          /tenantId/,
        );
        await expect(store.createKey({ tenantId: "acme", principalId: "" })).rejects.toThrow(/principalId/);
        await expect(
          store.createKey({ tenantId: "acme", principalId: "agent", scopes: ["a b"] }),
        ).rejects.toThrow(/scopes/);
        expect(await store.hasKeys()).toBe(false);
      });
    });

    describe("login tokens and sessions", () => {
      it("redeems a login token once into a session with its own CSRF token", async () => {
        const { store, keyId } = await withKey();
        const token = await store.createLoginToken(keyId);
        const redeemed = await store.redeemLoginToken(token);
        expect(redeemed).toEqual({
          sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
          caller: { keyId, tenantId: "acme", principalId: "ops", scopes: [], mode: "active", operator: true },
        });
        expect(redeemed?.csrfToken).not.toBe(redeemed?.sessionId);
        expect(await store.redeemLoginToken(token)).toBeUndefined();
        expect(await store.session(redeemed?.sessionId ?? "")).toEqual({
          caller: redeemed?.caller,
          csrfToken: redeemed?.csrfToken,
        });
      });

      it("gives each login its own session and CSRF token", async () => {
        const { store, keyId } = await withKey();
        const first = await login(store, keyId);
        const second = await login(store, keyId);
        expect(second.sessionId).not.toBe(first.sessionId);
        expect(second.csrfToken).not.toBe(first.csrfToken);
        expect((await store.session(first.sessionId))?.csrfToken).toBe(first.csrfToken);
      });

      it("lets a token be redeemed once across two connections, and a session live on both", async () => {
        const { store, open, keyId } = await withKey();
        const other = await open();
        const token = await store.createLoginToken(keyId);
        const redeemed = await other.redeemLoginToken(token);
        expect(redeemed?.caller.keyId).toBe(keyId);
        expect(await store.redeemLoginToken(token)).toBeUndefined();
        expect(await other.redeemLoginToken(token)).toBeUndefined();
        expect((await store.session(redeemed?.sessionId ?? ""))?.csrfToken).toBe(redeemed?.csrfToken);
      });

      it("lets one of many concurrent redeems of a token win", async () => {
        const { store, open, keyId } = await withKey();
        const other = await open();
        const tokens = await Promise.all(Array.from({ length: 20 }, () => store.createLoginToken(keyId)));
        const answers = await Promise.all(
          tokens.flatMap((token) => [store, other, store, other].map((each) => each.redeemLoginToken(token))),
        );
        expect(answers.filter((answer) => answer !== undefined)).toHaveLength(tokens.length);
      });

      it("refuses unknown and malformed tokens and session ids without throwing", async () => {
        const { store } = await withKey();
        for (const value of [
          "",
          "x",
          "a".repeat(43),
          "a".repeat(10_000),
          "../../etc",
          undefined as unknown as string,
        ]) {
          expect(await store.redeemLoginToken(value)).toBeUndefined();
          expect(await store.session(value)).toBeUndefined();
          await expect(store.endSession(value)).resolves.toBeUndefined();
        }
      });

      it("expires a login token after 15 minutes by default, or after its own ttl", async () => {
        const { store, time, keyId } = await withKey();
        const lasting = await store.createLoginToken(keyId);
        const short = await store.createLoginToken(keyId, MINUTE);
        time.now += MINUTE;
        expect(await store.redeemLoginToken(short)).toBeUndefined();
        time.now += 14 * MINUTE - 1;
        expect(await store.redeemLoginToken(lasting)).toBeDefined();
        const late = await store.createLoginToken(keyId);
        time.now += 15 * MINUTE;
        expect(await store.redeemLoginToken(late)).toBeUndefined();
      });

      it("ends a session after 12 hours by default", async () => {
        const { store, time, keyId } = await withKey();
        const { sessionId } = await login(store, keyId);
        time.now += 12 * HOUR - 1;
        expect(await store.session(sessionId)).toBeDefined();
        time.now += 1;
        expect(await store.session(sessionId)).toBeUndefined();
      });

      it("ends a session after the configured session ttl", async () => {
        const { store, time, keyId } = await withKey({ sessionTtlMs: HOUR });
        const { sessionId } = await login(store, keyId);
        time.now += HOUR;
        expect(await store.session(sessionId)).toBeUndefined();
      });

      it("ends a session on request", async () => {
        const { store, keyId } = await withKey();
        const { sessionId } = await login(store, keyId);
        await store.endSession(sessionId);
        expect(await store.session(sessionId)).toBeUndefined();
      });

      it("ends a key's sessions and login tokens when the key is revoked", async () => {
        const { store, open, keyId } = await withKey();
        const other = (await store.createKey({ tenantId: "acme", principalId: "ops-2", operator: true }))
          .record.id;
        const { sessionId } = await login(store, keyId);
        const kept = await login(store, other);
        const pending = await store.createLoginToken(keyId);
        await store.revokeKey(keyId);
        expect(await store.session(sessionId)).toBeUndefined();
        expect(await (await open()).session(sessionId)).toBeUndefined();
        expect(await store.redeemLoginToken(pending)).toBeUndefined();
        expect((await store.session(kept.sessionId))?.caller.keyId).toBe(other);
      });

      it("makes login tokens only for live keys", async () => {
        const { store, keyId } = await withKey();
        await expect(store.createLoginToken("0".repeat(20))).rejects.toThrow(/no live API key/);
        await store.revokeKey(keyId);
        await expect(store.createLoginToken(keyId)).rejects.toThrow(/no live API key/);
      });

      it("refuses a ttl that is not a positive whole number", async () => {
        const { store, keyId } = await withKey();
        for (const ttl of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
          await expect(store.createLoginToken(keyId, ttl), String(ttl)).rejects.toThrow(/ttlMs/);
        await expect(factory({ sessionTtlMs: 0 })).rejects.toThrow(/sessionTtlMs/);
      });

      it("stores only hashes of login tokens and session ids", async () => {
        const { store, rows, keyId } = await withKey();
        const token = await store.createLoginToken(keyId);
        const { sessionId } = (await store.redeemLoginToken(token)) ?? { sessionId: "" };
        const [tokenRows, sessionRows] = await Promise.all([
          rows("auth_login_tokens"),
          rows("auth_sessions"),
        ]);
        expect(tokenRows.map((row) => Buffer.from(row.token_hash as Uint8Array))).toEqual([sha256(token)]);
        expect(sessionRows.map((row) => Buffer.from(row.session_hash as Uint8Array))).toEqual([
          sha256(sessionId),
        ]);
        const stored = [...tokenRows, ...sessionRows].flatMap((row) => Object.values(row)).map(String);
        expect(stored.some((value) => value.includes(token) || value.includes(sessionId))).toBe(false);
      });

      it("purges used and expired login tokens when a token is made, and expired sessions when one is", async () => {
        const { store, time, count, keyId } = await withKey();
        await login(store, keyId);
        expect(await count("auth_login_tokens")).toBe(1);
        await store.createLoginToken(keyId, MINUTE); // purges the used token
        await store.createLoginToken(keyId, HOUR);
        expect(await count("auth_login_tokens")).toBe(2);
        time.now += MINUTE;
        await store.createLoginToken(keyId, HOUR); // purges the one-minute token
        expect(await count("auth_login_tokens")).toBe(2);
        expect(await count("auth_sessions")).toBe(1);
        time.now += 12 * HOUR;
        await login(store, keyId); // purges the expired session
        expect(await count("auth_sessions")).toBe(1);
        expect(await count("auth_login_tokens")).toBe(1);
      });
    });
  });
  runAuthStoreGrantConformance(name, factory);
}
