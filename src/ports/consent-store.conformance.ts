/**
 * @module The one conformance suite every ConsentStore adapter runs: one pending consent per user and
 * credential (unless more scopes are needed), a state used once, one parked call per key, settling once.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Envelope } from "../seam/envelope.js";
import type { ConsentStore, NewConsentRequest, NewParkedCall } from "./consent-store.js";

export interface ConsentStoreFixture {
  store: ConsentStore;
  /** Drops the store and opens the same storage again; only durable adapters provide it. */
  reopen?: () => Promise<ConsentStore>;
  cleanup(): Promise<void>;
}

const A = "tenant-a";
const B = "tenant-b";

const requestOf = (overrides: Partial<NewConsentRequest> = {}): NewConsentRequest => ({
  tenantId: A,
  id: "consent-1",
  principalId: "alice",
  credentialRef: "github",
  provider: "github",
  scopes: ["repo", "read:org"],
  stateHash: "hash-1",
  codeVerifier: "verifier-1-abcdefghijklmnopqrstuvwxyz0123456789",
  redirectUri: "https://toolreg.example/oauth/callback",
  authorizationUrl: "https://github.com/login/oauth/authorize?state=state-1",
  createdAt: 1_000,
  expiresAt: 601_000,
  ...overrides,
});

const callOf = (overrides: Partial<NewParkedCall> = {}): NewParkedCall => ({
  tenantId: A,
  id: "parked-1",
  consentId: "consent-1",
  requestedBy: "alice",
  credentialRef: "github",
  toolName: "github_get_issue",
  definitionHash: "sha256:abc",
  input: { owner: "o", repo: "r", number: 7, nested: { list: [1, "two"] } },
  runId: "run-1",
  toolCallId: "call-1",
  idempotencyKey: "key-1",
  fingerprint: "fp-1",
  callerScopes: ["github:read"],
  mode: "active",
  createdAt: 1_000,
  expiresAt: 3_601_000,
  ...overrides,
});

const resumed: Envelope = { ok: true, content: "issue 7", data: { number: 7 } };

/** Registers the suite for one adapter; `factory` gives a fresh, empty store for every test. */
export function runConsentStoreConformance(name: string, factory: () => Promise<ConsentStoreFixture>): void {
  describe(`${name} consent store conformance`, () => {
    let fixture: ConsentStoreFixture;
    let store: ConsentStore;
    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    describe("consent requests", () => {
      it("opens one pending consent per user and credential, shared by calls needing no more scopes", async () => {
        const first = await store.open(requestOf());
        expect(first).toEqual({
          created: true,
          request: { ...requestOf(), status: "pending", usedAt: undefined },
        });
        const shared = await store.open(
          requestOf({ id: "consent-2", stateHash: "hash-2", scopes: ["repo"], createdAt: 2_000 }),
        );
        expect(shared).toMatchObject({ created: false, request: { id: "consent-1", stateHash: "hash-1" } });
        expect(await store.getRequest({ tenantId: A, id: "consent-2" })).toBeUndefined();
      });

      it("opens another where more scopes are needed, for another user, credential or tenant, or once expired", async () => {
        await store.open(requestOf());
        const others: Partial<NewConsentRequest>[] = [
          { scopes: ["repo", "workflow"] },
          { principalId: "bob" },
          { credentialRef: "github-enterprise" },
          { tenantId: B },
          { createdAt: 601_000, expiresAt: 1_201_000 },
        ];
        for (const [index, overrides] of others.entries()) {
          const opened = await store.open(
            requestOf({ id: `consent-${index + 2}`, stateHash: `hash-${index + 2}`, ...overrides }),
          );
          expect(opened.created).toBe(true);
        }
      });

      it("hands a state's request over once, and never once expired or for an unknown state", async () => {
        await store.open(requestOf());
        expect(
          await store.take({ stateHash: "unknown", consentIds: ["consent-1"], now: 2_000 }),
        ).toBeUndefined();
        const taken = await store.take({ stateHash: "hash-1", consentIds: ["consent-1"], now: 2_000 });
        expect(taken).toMatchObject({
          id: "consent-1",
          status: "used",
          usedAt: 2_000,
          codeVerifier: requestOf().codeVerifier,
          authorizationUrl: requestOf().authorizationUrl,
        });
        expect(
          await store.take({ stateHash: "hash-1", consentIds: ["consent-1"], now: 2_001 }),
        ).toBeUndefined();
        // A used consent no longer serves new calls.
        expect(
          (await store.open(requestOf({ id: "consent-2", stateHash: "hash-2", createdAt: 3_000 }))).created,
        ).toBe(true);
        expect(
          await store.take({ stateHash: "hash-2", consentIds: ["consent-2"], now: 601_000 + 3_000 }),
        ).toBeUndefined();
      });

      it("takes a state only for a consent the browser was bound to, leaving it usable by its own user", async () => {
        await store.open(requestOf());
        // Another user's browser, bound to consents of its own: the state is refused and not spent.
        expect(
          await store.take({ stateHash: "hash-1", consentIds: ["consent-9"], now: 2_000 }),
        ).toBeUndefined();
        expect(await store.take({ stateHash: "hash-1", consentIds: [], now: 2_000 })).toBeUndefined();
        expect(await store.getRequest({ tenantId: A, id: "consent-1" })).toMatchObject({ status: "pending" });
        expect(
          await store.take({ stateHash: "hash-1", consentIds: ["consent-9", "consent-1"], now: 2_000 }),
        ).toMatchObject({ id: "consent-1", status: "used" });
      });

      it("keeps each tenant's requests to itself", async () => {
        await store.open(requestOf());
        expect(await store.getRequest({ tenantId: B, id: "consent-1" })).toBeUndefined();
        expect(await store.getRequest({ tenantId: A, id: "consent-1" })).toMatchObject({
          principalId: "alice",
        });
      });
    });

    describe("parked calls", () => {
      it("parks a call once per key: a duplicate finds it, a call under another key parks apart", async () => {
        expect(await store.park(callOf())).toEqual({
          created: true,
          call: { ...callOf(), status: "waiting", result: undefined, resumedAt: undefined },
        });
        const duplicate = await store.park(callOf({ id: "parked-2", createdAt: 2_000 }));
        expect(duplicate).toMatchObject({ created: false, call: { id: "parked-1" } });
        expect((await store.park(callOf({ id: "parked-3", idempotencyKey: "key-2" }))).created).toBe(true);
        expect((await store.park(callOf({ id: "parked-4", tenantId: B }))).created).toBe(true);
        expect(await store.getCall({ tenantId: A, id: "parked-2" })).toBeUndefined();
        expect(await store.getCall({ tenantId: B, id: "parked-1" })).toBeUndefined();
      });

      it("lists the calls one user waits with on one credential, oldest first", async () => {
        await store.park(callOf({ id: "late", idempotencyKey: "k-late", createdAt: 3_000 }));
        await store.park(callOf({ id: "early", idempotencyKey: "k-early", createdAt: 2_000 }));
        await store.park(callOf({ id: "bobs", idempotencyKey: "k-bob", requestedBy: "bob" }));
        await store.park(callOf({ id: "slack", idempotencyKey: "k-slack", credentialRef: "slack" }));
        await store.park(callOf({ id: "done", idempotencyKey: "k-done" }));
        await store.settle({ tenantId: A, id: "done", result: resumed, at: 4_000 });
        const ids = (await store.waiting({ tenantId: A, principalId: "alice", credentialRef: "github" })).map(
          (call) => call.id,
        );
        expect(ids).toEqual(["early", "late"]);
        expect(await store.waiting({ tenantId: B, principalId: "alice", credentialRef: "github" })).toEqual(
          [],
        );
      });

      it("settles a waiting call once, keeping what resuming answered", async () => {
        await store.park(callOf());
        expect(await store.settle({ tenantId: A, id: "parked-1", result: resumed, at: 5_000 })).toBe(true);
        expect(
          await store.settle({
            tenantId: A,
            id: "parked-1",
            result: { ok: true, content: "again" },
            at: 6_000,
          }),
        ).toBe(false);
        expect(await store.getCall({ tenantId: A, id: "parked-1" })).toMatchObject({
          status: "resumed",
          result: resumed,
          resumedAt: 5_000,
        });
        // A duplicate of a resumed call finds it, with its result.
        expect(await store.park(callOf({ id: "parked-2" }))).toMatchObject({
          created: false,
          call: { id: "parked-1", result: resumed },
        });
        expect(await store.settle({ tenantId: B, id: "parked-1", result: resumed, at: 5_000 })).toBe(false);
      });

      it("expires waiting calls past their time, after which the key parks anew", async () => {
        await store.park(callOf());
        await store.park(callOf({ id: "kept", idempotencyKey: "key-2", expiresAt: 10_000_000 }));
        await store.open(requestOf());
        await store.open(
          requestOf({ id: "consent-2", stateHash: "hash-2", principalId: "bob", expiresAt: 10_000_000 }),
        );
        await store.take({ stateHash: "hash-2", consentIds: ["consent-2"], now: 2_000 });
        expect(await store.expire({ now: 3_601_000 })).toBe(3);
        expect(await store.getCall({ tenantId: A, id: "parked-1" })).toMatchObject({ status: "expired" });
        expect(await store.getCall({ tenantId: A, id: "kept" })).toMatchObject({ status: "waiting" });
        expect(await store.getRequest({ tenantId: A, id: "consent-1" })).toBeUndefined();
        expect(await store.getRequest({ tenantId: A, id: "consent-2" })).toBeUndefined();
        expect(await store.settle({ tenantId: A, id: "parked-1", result: resumed, at: 1 })).toBe(false);
        expect(
          (await store.park(callOf({ id: "parked-again", createdAt: 3_700_000, expiresAt: 7_300_000 })))
            .created,
        ).toBe(true);
        expect(await store.expire({ now: 3_601_000 })).toBe(0);
      });
    });

    it("keeps consents and parked calls across a reopen, where the adapter is durable", async (context) => {
      if (!fixture.reopen) {
        context.skip();
        return;
      }
      await store.open(requestOf());
      await store.park(callOf());
      const reopened = await fixture.reopen();
      expect(
        await reopened.take({ stateHash: "hash-1", consentIds: ["consent-1"], now: 2_000 }),
      ).toMatchObject({
        codeVerifier: requestOf().codeVerifier,
      });
      expect(
        await reopened.waiting({ tenantId: A, principalId: "alice", credentialRef: "github" }),
      ).toMatchObject([{ id: "parked-1", input: callOf().input }]);
    });
  });
}
