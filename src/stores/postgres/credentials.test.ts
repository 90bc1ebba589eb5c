/** @module The PostgreSQL credential store against the conformance suite, and what sealing at rest on a shared server can get wrong. */
import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  type ScratchSchema,
  scratchSchema,
  withScratchSchema,
} from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import { runCredentialStoreConformance } from "../../ports/credential-store.conformance.js";
import type { NewCredential } from "../../ports/credential-store.js";
import { createPostgresCredentialStore } from "./index.js";

const reachable = await postgresAvailable("credential store");

const ACCESS = "gho_plaintext_canary_7f3a9c";
const REFRESH = "ghr_plaintext_canary_2b8e41";
const credential: NewCredential = {
  tenantId: "acme",
  principalId: "alice",
  ref: "github",
  kind: "oauth",
  provider: "github",
  secrets: { accessToken: ACCESS, refreshToken: REFRESH },
  connectedBy: "alice",
  at: 1_000,
};

const open = (
  { pool, schema }: { pool: ScratchSchema["stores"]["pool"]; schema: string },
  key?: Uint8Array,
) => createPostgresCredentialStore(pool, schema, key);

describe.runIf(reachable)("postgres credential store", () => {
  runCredentialStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    const key = randomBytes(32);
    return {
      store: await open(scratch.stores, key),
      reopen: async () => open(await scratch.reopen(), key),
      cleanup: scratch.cleanup,
    };
  });

  it("keeps no secret in the clear: a plain SELECT of the table finds neither token", () =>
    withScratchSchema(async ({ stores }) => {
      await (await open(stores, randomBytes(32))).put(credential);
      const { rows } = await stores.pool.query(`SELECT * FROM ${stores.schema}.credentials`);
      expect(rows).toHaveLength(1);
      expect(JSON.stringify(rows)).not.toContain(ACCESS);
      expect(JSON.stringify(rows)).not.toContain(REFRESH);
      expect(rows[0]).toMatchObject({
        sealed: expect.stringMatching(/^v1\./),
        key_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      });
    }));

  it("refuses to open without a key, or with a key that is not 32 bytes", () =>
    withScratchSchema(async ({ stores }) => {
      await expect(open(stores, undefined)).rejects.toThrow(/needs the operator's encryption key/);
      await expect(open(stores, randomBytes(16))).rejects.toThrow(/32 bytes/);
    }));

  it("refuses another key on another instance, naming both key ids, and still opens with the right one", () =>
    withScratchSchema(async (scratch) => {
      const key = randomBytes(32);
      await (await open(scratch.stores, key)).put(credential);
      const elsewhere = await scratch.another();
      await expect(open(elsewhere, randomBytes(32))).rejects.toThrow(
        /is not the one this store's secrets are sealed under \(id [0-9a-f]{16}\)/,
      );
      const store = await open(elsewhere, key);
      expect((await store.get(credential))?.secrets).toEqual({ accessToken: ACCESS, refreshToken: REFRESH });
    }));

  it("says a secret was moved to another record instead of handing it to the wrong principal", () =>
    withScratchSchema(async ({ stores }) => {
      const store = await open(stores, randomBytes(32));
      await store.put(credential);
      await store.put({ ...credential, principalId: "bob", secrets: { accessToken: "bobs-token" } });
      const table = `${stores.schema}.credentials`;
      await stores.pool.query(
        `UPDATE ${table} SET sealed = (SELECT sealed FROM ${table} WHERE principal_id = 'alice') WHERE principal_id = 'bob'`,
      );
      await expect(store.get({ ...credential, principalId: "bob" })).rejects.toThrow(
        /moved from another record/,
      );
    }));

  it("stores one of two refreshes racing from two instances over the same version", () =>
    withScratchSchema(async (scratch) => {
      const key = randomBytes(32);
      const [first, second] = [await open(scratch.stores, key), await open(await scratch.another(), key)];
      const { version } = await first.put(credential);
      const refresh = (token: string) => ({
        ...credential,
        version,
        secrets: { accessToken: token },
        expiresAt: 5,
        at: 2,
      });
      const stored = await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          (index % 2 ? second : first).update(refresh(`token-${index}`)),
        ),
      );
      expect(stored.filter(Boolean)).toEqual([true]);
      expect(await second.get(credential)).toMatchObject({
        version: version + 1,
        secrets: { accessToken: `token-${stored.indexOf(true)}` },
      });
    }));
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable)
  it.skip("postgres credential store (skipped: PostgreSQL unreachable, CI is not true)", () => {});
