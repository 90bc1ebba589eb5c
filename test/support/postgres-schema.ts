/** @module What the PostgreSQL store tests share: the server's URL, and the stores on a schema of their own per test. */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { openPostgresStores, type PostgresStores } from "../../src/stores/postgres/index.js";

export const POSTGRES_URL =
  process.env.TOOLREG_TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

/** A schema no other run uses, so runs on one server never collide. */
export const freshSchema = (): string => `toolreg_test_${randomBytes(6).toString("hex")}`;

export async function dropSchema(schema: string): Promise<void> {
  const client = new pg.Client({ connectionString: POSTGRES_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}

/** Stores on a fresh, migrated schema; every pool opened on it is closed, and the schema dropped, by cleanup. */
export interface ScratchSchema {
  /** The stores of the pool opened last. */
  readonly stores: PostgresStores;
  /** Closes the last pool and opens a new one on the same schema: the nearest a test gets to a restart. */
  reopen(): Promise<PostgresStores>;
  /** Another pool on the same schema, as a second instance of toolreg would have. */
  another(): Promise<PostgresStores>;
  cleanup(): Promise<void>;
}

export async function scratchSchema(): Promise<ScratchSchema> {
  const schema = freshSchema();
  const open = () => openPostgresStores({ connectionString: POSTGRES_URL, schema });
  const others: PostgresStores[] = [];
  let current = await open();
  return {
    get stores() {
      return current;
    },
    async reopen() {
      await current.close();
      current = await open();
      return current;
    },
    async another() {
      const stores = await open();
      others.push(stores);
      return stores;
    },
    async cleanup() {
      for (const stores of [current, ...others.splice(0)]) await stores.close();
      await dropSchema(schema);
    },
  };
}

/** Runs `test` on a scratch schema, closed and dropped however the test ends. */
export async function withScratchSchema(test: (scratch: ScratchSchema) => Promise<void>): Promise<void> {
  const scratch = await scratchSchema();
  try {
    await test(scratch);
  } finally {
    await scratch.cleanup();
  }
}
