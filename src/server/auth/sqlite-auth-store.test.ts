import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { type AuthStore, openSqliteAuthStore } from "./index.js";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const directories: string[] = [];
const opened: AuthStore[] = [];
const readers: Database.Database[] = [];

afterEach(() => {
  for (const store of opened.splice(0)) store.close();
  for (const reader of readers.splice(0)) reader.close();
  for (const directory of directories.splice(0)) rmSync(directory, { recursive: true, force: true });
});

function temporaryFile(): string {
  const directory = mkdtempSync(join(tmpdir(), "toolreg-auth-"));
  directories.push(directory);
  return join(directory, "server.db");
}

/** A store on a fresh file with a clock the test moves, and a plain connection to read its tables. */
function setup(options: { sessionTtlMs?: number } = {}) {
  const path = temporaryFile();
  const time = { now: 1_700_000_000_000 };
  const open = () => {
    const store = openSqliteAuthStore(path, { ...options, clock: () => time.now });
    opened.push(store);
    return store;
  };
  const store = open();
  const reader = new Database(path, { readonly: true });
  readers.push(reader);
  const count = (table: string) => reader.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
  return { path, time, store, open, reader, count };
}

const sha256 = (text: string) => createHash("sha256").update(text).digest();

describe("api keys", () => {
  it("verifies a created key as its caller", () => {
    const { store, time } = setup();
    const { key, record } = store.createKey({
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
    const caller = store.verifyKey(key);
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

  it("defaults to an active, non-operator key with no scopes", () => {
    const { store } = setup();
    const { key } = store.createKey({ tenantId: "acme", principalId: "agent" });
    expect(store.verifyKey(key)).toMatchObject({ scopes: [], mode: "active", operator: false });
  });

  it("refuses a wrong secret, a wrong id and malformed keys without throwing", () => {
    const { store } = setup();
    const { key, record } = store.createKey({ tenantId: "acme", principalId: "agent" });
    const other = store.createKey({ tenantId: "acme", principalId: "agent" });
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
      undefined as unknown as string,
    ])
      expect(store.verifyKey(presented), presented).toBeUndefined();
    expect(store.verifyKey(key)?.keyId).toBe(record.id);
  });

  it("stores only the hash of the secret", () => {
    const { store, reader } = setup();
    const { key, record } = store.createKey({ tenantId: "acme", principalId: "agent", label: "ci" });
    const secret = key.slice(`trk_${record.id}_`.length);
    const row = reader.prepare("SELECT * FROM auth_keys").get() as Record<string, unknown>;
    expect(row.secret_hash).toEqual(sha256(secret));
    for (const value of Object.values(row)) {
      const text = Buffer.isBuffer(value) ? value.toString("latin1") : String(value);
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(secret, "base64url").toString("latin1"));
    }
  });

  it("lists keys, all or one tenant's, oldest first, with revocations", () => {
    const { store, time } = setup();
    const first = store.createKey({ tenantId: "acme", principalId: "a" }).record;
    time.now += 1;
    const second = store.createKey({ tenantId: "globex", principalId: "b" }).record;
    time.now += 1;
    const third = store.createKey({ tenantId: "acme", principalId: "c" }).record;
    store.revokeKey(third.id);
    expect(store.listKeys().map((key) => key.id)).toEqual([first.id, second.id, third.id]);
    expect(store.listKeys({ tenantId: "acme" })).toEqual([first, { ...third, revokedAt: time.now }]);
    expect(store.listKeys({ tenantId: "globex" })).toEqual([second]);
    expect(store.listKeys({ tenantId: "initech" })).toEqual([]);
  });

  it("revokes a key once, after which it no longer verifies", () => {
    const { store } = setup();
    const { key, record } = store.createKey({ tenantId: "acme", principalId: "agent" });
    expect(store.revokeKey(record.id)).toBe(true);
    expect(store.verifyKey(key)).toBeUndefined();
    expect(store.revokeKey(record.id)).toBe(false);
    expect(store.revokeKey("no-such-key")).toBe(false);
  });

  it("has keys once any was created, revoked ones included", () => {
    const { store } = setup();
    expect(store.hasKeys()).toBe(false);
    const { record } = store.createKey({ tenantId: "acme", principalId: "agent" });
    expect(store.hasKeys()).toBe(true);
    store.revokeKey(record.id);
    expect(store.hasKeys()).toBe(true);
  });

  it("refuses invalid input, naming the field, and stores nothing", () => {
    const { store } = setup();
    expect(() => store.createKey({ tenantId: "no spaces", principalId: "agent" })).toThrow(/tenantId/);
    expect(() => store.createKey({ tenantId: "acme", principalId: "" })).toThrow(/principalId/);
    expect(() => store.createKey({ tenantId: "acme", principalId: "agent", scopes: ["a b"] })).toThrow(
      /scopes/,
    );
    expect(store.hasKeys()).toBe(false);
  });
});

describe("login tokens and sessions", () => {
  function withKey(options: { sessionTtlMs?: number } = {}) {
    const context = setup(options);
    const { key, record } = context.store.createKey({ tenantId: "acme", principalId: "ops", operator: true });
    return { ...context, key, keyId: record.id };
  }

  it("redeems a login token once into a session with its own CSRF token", () => {
    const { store, keyId } = withKey();
    const token = store.createLoginToken(keyId);
    const login = store.redeemLoginToken(token);
    expect(login).toEqual({
      sessionId: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      csrfToken: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      caller: { keyId, tenantId: "acme", principalId: "ops", scopes: [], mode: "active", operator: true },
    });
    expect(login!.csrfToken).not.toBe(login!.sessionId);
    expect(store.redeemLoginToken(token)).toBeUndefined();
    expect(store.session(login!.sessionId)).toEqual({ caller: login!.caller, csrfToken: login!.csrfToken });
  });

  it("gives each login its own session and CSRF token", () => {
    const { store, keyId } = withKey();
    const first = store.redeemLoginToken(store.createLoginToken(keyId))!;
    const second = store.redeemLoginToken(store.createLoginToken(keyId))!;
    expect(second.sessionId).not.toBe(first.sessionId);
    expect(second.csrfToken).not.toBe(first.csrfToken);
    expect(store.session(first.sessionId)?.csrfToken).toBe(first.csrfToken);
  });

  it("lets a token be redeemed once across two connections to the file", () => {
    const { store, open, keyId } = withKey();
    const other = open();
    const token = store.createLoginToken(keyId);
    const login = other.redeemLoginToken(token);
    expect(login?.caller.keyId).toBe(keyId);
    expect(store.redeemLoginToken(token)).toBeUndefined();
    expect(other.redeemLoginToken(token)).toBeUndefined();
    // A session made through one connection is live through the other.
    expect(store.session(login!.sessionId)?.csrfToken).toBe(login!.csrfToken);
  });

  it("refuses unknown and malformed tokens and session ids without throwing", () => {
    const { store } = withKey();
    for (const value of [
      "",
      "x",
      "a".repeat(43),
      "a".repeat(10_000),
      "../../etc",
      undefined as unknown as string,
    ]) {
      expect(store.redeemLoginToken(value)).toBeUndefined();
      expect(store.session(value)).toBeUndefined();
      expect(() => store.endSession(value)).not.toThrow();
    }
  });

  it("expires a login token after 15 minutes by default, or after its own ttl", () => {
    const { store, time, keyId } = withKey();
    const lasting = store.createLoginToken(keyId);
    const short = store.createLoginToken(keyId, MINUTE);
    time.now += MINUTE;
    expect(store.redeemLoginToken(short)).toBeUndefined();
    time.now += 14 * MINUTE - 1;
    expect(store.redeemLoginToken(lasting)).toBeDefined();
    const late = store.createLoginToken(keyId);
    time.now += 15 * MINUTE;
    expect(store.redeemLoginToken(late)).toBeUndefined();
  });

  it("ends a session after 12 hours by default", () => {
    const { store, time, keyId } = withKey();
    const { sessionId } = store.redeemLoginToken(store.createLoginToken(keyId))!;
    time.now += 12 * HOUR - 1;
    expect(store.session(sessionId)).toBeDefined();
    time.now += 1;
    expect(store.session(sessionId)).toBeUndefined();
  });

  it("ends a session after the configured session ttl", () => {
    const { store, time, keyId } = withKey({ sessionTtlMs: HOUR });
    const { sessionId } = store.redeemLoginToken(store.createLoginToken(keyId))!;
    time.now += HOUR;
    expect(store.session(sessionId)).toBeUndefined();
  });

  it("ends a session on request", () => {
    const { store, keyId } = withKey();
    const { sessionId } = store.redeemLoginToken(store.createLoginToken(keyId))!;
    store.endSession(sessionId);
    expect(store.session(sessionId)).toBeUndefined();
  });

  it("ends a key's sessions and login tokens when the key is revoked", () => {
    const { store, open, keyId } = withKey();
    const other = store.createKey({ tenantId: "acme", principalId: "ops-2", operator: true }).record.id;
    const { sessionId } = store.redeemLoginToken(store.createLoginToken(keyId))!;
    const kept = store.redeemLoginToken(store.createLoginToken(other))!;
    const pending = store.createLoginToken(keyId);
    store.revokeKey(keyId);
    expect(store.session(sessionId)).toBeUndefined();
    expect(open().session(sessionId)).toBeUndefined();
    expect(store.redeemLoginToken(pending)).toBeUndefined();
    expect(store.session(kept.sessionId)?.caller.keyId).toBe(other);
  });

  it("makes login tokens only for live keys", () => {
    const { store, keyId } = withKey();
    expect(() => store.createLoginToken("0".repeat(20))).toThrow(/no live API key/);
    store.revokeKey(keyId);
    expect(() => store.createLoginToken(keyId)).toThrow(/no live API key/);
  });

  it("refuses a ttl that is not a positive whole number", () => {
    const { store, path, keyId } = withKey();
    for (const ttl of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])
      expect(() => store.createLoginToken(keyId, ttl), String(ttl)).toThrow(/ttlMs/);
    expect(() => openSqliteAuthStore(path, { sessionTtlMs: 0 })).toThrow(/sessionTtlMs/);
  });

  it("stores only hashes of login tokens and session ids", () => {
    const { store, reader, keyId } = withKey();
    const token = store.createLoginToken(keyId);
    const { sessionId } = store.redeemLoginToken(token)!;
    const rows = [
      ...reader.prepare("SELECT * FROM auth_login_tokens").all(),
      ...reader.prepare("SELECT * FROM auth_sessions").all(),
    ] as Record<string, unknown>[];
    expect(rows.map((row) => row.token_hash ?? row.session_hash)).toEqual([sha256(token), sha256(sessionId)]);
    const stored = rows.flatMap((row) => Object.values(row)).map((value) => String(value));
    expect(stored.some((value) => value.includes(token) || value.includes(sessionId))).toBe(false);
  });

  it("purges used and expired login tokens when a token is made, and expired sessions when one is", () => {
    const { store, time, count, keyId } = withKey();
    store.redeemLoginToken(store.createLoginToken(keyId));
    expect(count("auth_login_tokens")).toBe(1);
    store.createLoginToken(keyId, MINUTE); // purges the used token
    store.createLoginToken(keyId, HOUR);
    expect(count("auth_login_tokens")).toBe(2);
    time.now += MINUTE;
    store.createLoginToken(keyId, HOUR); // purges the one-minute token
    expect(count("auth_login_tokens")).toBe(2);
    expect(count("auth_sessions")).toBe(1);
    time.now += 12 * HOUR;
    store.redeemLoginToken(store.createLoginToken(keyId)); // purges the expired session
    expect(count("auth_sessions")).toBe(1);
    expect(count("auth_login_tokens")).toBe(1);
  });
});
