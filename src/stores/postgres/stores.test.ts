/** @module The PostgreSQL adapters against the store conformance suite, plus what only a shared server can get wrong. */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { runStoreConformance } from "../../../test/conformance/stores.js";
import {
  POSTGRES_URL as CONNECTION,
  dropSchema,
  freshSchema,
  scratchSchema,
} from "../../../test/support/postgres-schema.js";
import { postgresAvailable } from "../../../test/support/sql.js";
import type { ClaimInput } from "../../ports/stores.js";
import { openPostgresStores, POSTGRES_MIGRATIONS, type PostgresStores } from "./index.js";

const reachable = await postgresAvailable("store adapters");

describe.runIf(reachable)("postgres stores", () => {
  runStoreConformance("postgres", async () => {
    const scratch = await scratchSchema();
    return { stores: scratch.stores, reopen: scratch.reopen, cleanup: scratch.cleanup };
  });

  const opened: PostgresStores[] = [];
  const schemas: string[] = [];
  const open = async (schema: string, maxConnections?: number) => {
    const stores = await openPostgresStores({
      connectionString: CONNECTION,
      schema,
      ...(maxConnections === undefined ? {} : { maxConnections }),
    });
    opened.push(stores);
    return stores;
  };
  const scratch = () => {
    const schema = freshSchema();
    schemas.push(schema);
    return schema;
  };
  afterEach(async () => {
    for (const stores of opened.splice(0)) await stores.close();
    for (const schema of schemas.splice(0)) await dropSchema(schema);
  });

  it("migrates once when several instances open one fresh schema together", async () => {
    const schema = scratch();
    await Promise.all([open(schema), open(schema), open(schema)]);
    const client = new pg.Client({ connectionString: CONNECTION });
    await client.connect();
    try {
      const { rows } = await client.query<{ version: number; copies: string }>(
        `SELECT version, count(*) AS copies FROM "${schema}".schema_migrations GROUP BY version ORDER BY version`,
      );
      expect(rows.map((row) => [row.version, Number(row.copies)])).toEqual(
        POSTGRES_MIGRATIONS.map((migration) => [migration.version, 1]),
      );
    } finally {
      await client.end();
    }
  });

  it("refuses a schema name it would have to escape", async () => {
    await expect(openPostgresStores({ connectionString: CONNECTION, schema: 'x"; DROP' })).rejects.toThrow(
      /schema name/,
    );
  });

  it("gives exactly one of 50 concurrent claims of one key made through two pools", async () => {
    const schema = scratch();
    const [first, second] = await Promise.all([open(schema, 10), open(schema, 10)]);
    const claimOf = (index: number): ClaimInput => ({
      tenantId: "tenant-a",
      key: "key-1",
      fingerprint: "fp-1",
      toolName: "mail.send",
      claimId: `claim-${index}`,
      principalId: "agent:alice",
      holder: `host-${index % 2}:1`,
      reclaimable: false,
      now: 1_000,
      leaseMs: 30_000,
      retentionMs: 86_400_000,
    });
    const outcomes = await Promise.all(
      Array.from({ length: 50 }, (_, index) =>
        (index % 2 === 0 ? first : second).idempotency.claim(claimOf(index)),
      ),
    );
    const claimed = outcomes.filter((outcome) => outcome.kind === "claimed");
    expect(claimed).toEqual([{ kind: "claimed", reclaimed: false }]);
    expect(outcomes.filter((outcome) => outcome.kind !== "claimed")).toEqual(
      Array.from({ length: 49 }, () => ({ kind: "in_progress", leaseUntil: 31_000 })),
    );
    // The stored claim is the one that was told it won.
    const holder = await second.idempotency.get({ tenantId: "tenant-a", key: "key-1" });
    expect(outcomes[Number(holder?.claimId.slice("claim-".length))]).toEqual(claimed[0]);
  });

  it("takes over a lapsed lease once when two pools race for it", async () => {
    const schema = scratch();
    const [first, second] = await Promise.all([open(schema), open(schema)]);
    const base: ClaimInput = {
      tenantId: "tenant-a",
      key: "key-1",
      fingerprint: "fp-1",
      toolName: "mail.send",
      claimId: "claim-0",
      principalId: "agent:alice",
      holder: "host-a:1",
      reclaimable: true,
      now: 1_000,
      leaseMs: 30_000,
      retentionMs: 86_400_000,
    };
    await first.idempotency.claim(base);
    const outcomes = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).idempotency.claim({
          ...base,
          claimId: `late-${index}`,
          now: 40_000,
        }),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.kind === "claimed")).toEqual([
      { kind: "claimed", reclaimed: true },
    ]);
    expect(outcomes.filter((outcome) => outcome.kind !== "claimed")).toEqual(
      Array.from({ length: 19 }, () => ({ kind: "in_progress", leaseUntil: 70_000 })),
    );
  });
});

// postgresAvailable has already thrown under CI=true; elsewhere the skip is named in the report.
if (!reachable)
  it.skip("postgres stores (skipped: PostgreSQL unreachable at 127.0.0.1:5432, CI is not true)", () => {});
