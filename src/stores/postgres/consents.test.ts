/** @module The PostgreSQL consent store against the conformance suite, and what instances sharing one server can get wrong. */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { scratchSchema, withScratchSchema } from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { runConsentStoreConformance } from "../../ports/consent-store.conformance.js";
import type { NewConsentRequest, NewParkedCall } from "../../ports/consent-store.js";
import { createPostgresConsentStore, type PostgresStores } from "./index.js";

const reachable = await postgresAvailable("consent store");

const open = ({ pool, schema }: PostgresStores, key: Uint8Array | undefined) =>
  createPostgresConsentStore(pool, schema, key);

const VERIFIER = "verifier-canary-93b1f0";
const STATE = "state-canary-5d2e77";
const request: NewConsentRequest = {
  tenantId: "acme",
  id: "consent-1",
  principalId: "alice",
  credentialRef: "vendor",
  provider: "vendor",
  scopes: ["read"],
  stateHash: "hash-1",
  codeVerifier: VERIFIER,
  redirectUri: "https://toolreg.example/oauth/callback",
  authorizationUrl: `https://vendor.example/authorize?state=${STATE}`,
  createdAt: 1,
  expiresAt: 1_000_000,
};
const call: NewParkedCall = {
  tenantId: "acme",
  id: "parked-1",
  consentId: "consent-1",
  requestedBy: "alice",
  credentialRef: "vendor",
  toolName: "vendor_read",
  definitionHash: "sha256:abc",
  input: { id: 7 },
  runId: "run-1",
  toolCallId: "call-1",
  idempotencyKey: "key-1",
  fingerprint: "fp-1",
  callerScopes: ["vendor:read"],
  mode: "active",
  createdAt: 1,
  expiresAt: 1_000_000,
};

describe.runIf(reachable)("postgres consent store", () => {
  runConsentStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    const key = randomBytes(32);
    return {
      store: await open(scratch.stores, key),
      reopen: async () => open(await scratch.reopen(), key),
      cleanup: scratch.cleanup,
    };
  });

  it("keeps the PKCE verifier and the URL carrying the state sealed, and refuses another key", () =>
    withScratchSchema(async (scratch) => {
      const key = randomBytes(32);
      await (await open(scratch.stores, key)).open(request);
      const { stores } = scratch;
      const { rows } = await stores.pool.query(`SELECT * FROM ${stores.schema}.consent_requests`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(VERIFIER);
      expect(JSON.stringify(rows)).not.toContain(STATE);
      const elsewhere = await scratch.another();
      await expect(open(elsewhere, randomBytes(32))).rejects.toThrow(/is not the one/);
      await expect(open(elsewhere, undefined)).rejects.toThrow(/encryption key/);
      expect(await (await open(elsewhere, key)).getRequest(request)).toMatchObject({
        codeVerifier: VERIFIER,
      });
    }));

  it("hands a state over to exactly one of the callbacks racing for it through two instances", () =>
    withScratchSchema(async (scratch) => {
      const key = randomBytes(32);
      const [first, second] = [await open(scratch.stores, key), await open(await scratch.another(), key)];
      await first.open(request);
      const taken = await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          (index % 2 ? second : first).take({ stateHash: "hash-1", consentIds: ["consent-1"], now: 2 }),
        ),
      );
      expect(taken.filter((outcome) => outcome !== undefined)).toEqual([
        expect.objectContaining({ id: "consent-1", status: "used", usedAt: 2, codeVerifier: VERIFIER }),
      ]);
    }));

  it("opens one consent for calls of one user racing through two instances, and parks a key once", () =>
    withScratchSchema(async (scratch) => {
      const key = randomBytes(32);
      const [first, second] = [await open(scratch.stores, key), await open(await scratch.another(), key)];
      const opened = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 ? second : first).open({
            ...request,
            id: `consent-${index}`,
            stateHash: `hash-${index}`,
          }),
        ),
      );
      expect(opened.filter((outcome) => outcome.created)).toHaveLength(1);
      expect(new Set(opened.map((outcome) => outcome.request.id)).size).toBe(1);
      const parked = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 ? second : first).park({ ...call, id: `parked-${index}` }),
        ),
      );
      expect(parked.filter((outcome) => outcome.created)).toHaveLength(1);
      expect(new Set(parked.map((outcome) => outcome.call.id)).size).toBe(1);
    }));
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable) it.skip("postgres consent store (skipped: PostgreSQL unreachable, CI is not true)", () => {});
