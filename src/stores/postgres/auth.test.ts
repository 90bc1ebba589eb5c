/** @module The PostgreSQL auth store against the port's conformance suite, plus what only a shared server can get wrong. */
import { describe, expect, it } from "vitest";
import {
  type ScratchSchema,
  scratchSchema,
  withScratchSchema,
} from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { runAuthStoreConformance } from "../../ports/auth-store.conformance.js";
import type { AuthStore, AuthStoreOptions } from "../../ports/auth-store.js";
import { createPostgresAuthStore } from "./auth.js";

const reachable = await postgresAvailable("auth store");

const open = ({ pool, schema }: ScratchSchema["stores"], options: AuthStoreOptions = {}) =>
  createPostgresAuthStore(pool, schema, options);

/** Two instances on one scratch schema, each with its own pool, and a key made on the first. */
async function twoInstances(scratch: ScratchSchema) {
  const first = open(scratch.stores);
  const second = open(await scratch.another());
  const { key, record } = await first.createKey({ tenantId: "acme", principalId: "ops", operator: true });
  const count = async (table: string) => {
    const { rows } = await scratch.stores.pool.query<{ rows: number }>(
      `SELECT count(*)::int AS rows FROM ${scratch.stores.schema}.${table} WHERE key_id = $1`,
      [record.id],
    );
    return rows[0]?.rows;
  };
  return { first, second, key, keyId: record.id, count };
}

const tokensFor = (store: AuthStore, keyId: string, count: number) =>
  Promise.all(Array.from({ length: count }, () => store.createLoginToken(keyId)));

describe.runIf(reachable)("postgres auth store", () => {
  runAuthStoreConformance("postgres", async (options) => {
    const scratch = await scratchSchema();
    let store: AuthStore;
    try {
      store = open(scratch.stores, options);
    } catch (error) {
      await scratch.cleanup();
      throw error;
    }
    return {
      store,
      open: async () => open(await scratch.another(), options),
      rows: async (table) => {
        const { rows } = await scratch.stores.pool.query(`SELECT * FROM ${scratch.stores.schema}.${table}`);
        return rows;
      },
      cleanup: scratch.cleanup,
    };
  });

  it("gives exactly one session per login token when two pools redeem the same 50 at once", () =>
    withScratchSchema(async (scratch) => {
      const { first, second, keyId, count } = await twoInstances(scratch);
      const tokens = await tokensFor(first, keyId, 50);
      const answers = await Promise.all(
        tokens.map((token) =>
          Promise.all([first, second, first, second].map((store) => store.redeemLoginToken(token))),
        ),
      );
      for (const [index, perToken] of answers.entries()) {
        const winners = perToken.filter((answer) => answer !== undefined);
        expect(winners, `token ${index}`).toHaveLength(1);
        expect((await second.session(winners[0]!.sessionId))?.caller.keyId).toBe(keyId);
      }
      expect(await count("auth_sessions")).toBe(50);
    }));

  it("stops a key revoked through one pool from verifying, or its session living, through the other at once", () =>
    withScratchSchema(async (scratch) => {
      const { first, second, key, keyId } = await twoInstances(scratch);
      const [token] = await tokensFor(second, keyId, 1);
      const { sessionId } = (await second.redeemLoginToken(token!))!;
      expect((await second.verifyKey(key))?.keyId).toBe(keyId);
      expect(await first.revokeKey(keyId)).toBe(true);
      expect(await second.verifyKey(key)).toBeUndefined();
      expect(await second.session(sessionId)).toBeUndefined();
      await expect(second.createLoginToken(keyId)).rejects.toThrow(/no live API key/);
    }));

  it("leaves no token or session of a key revoked while another pool redeems its tokens", () =>
    withScratchSchema(async (scratch) => {
      const { first, second, keyId, count } = await twoInstances(scratch);
      const tokens = await tokensFor(first, keyId, 50);
      const redeems = Promise.all(tokens.map((token) => second.redeemLoginToken(token)));
      const revoked = await first.revokeKey(keyId);
      const answers = await redeems;
      expect(revoked).toBe(true);
      // A redeem either committed before the revocation, which then deleted its session, or found the key revoked.
      for (const answer of answers)
        if (answer) expect(await second.session(answer.sessionId)).toBeUndefined();
      expect(await count("auth_sessions")).toBe(0);
      expect(await count("auth_login_tokens")).toBe(0);
    }));
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable)
  it.skip("postgres auth store (skipped: PostgreSQL unreachable at 127.0.0.1:5432, CI is not true)", () => {});
