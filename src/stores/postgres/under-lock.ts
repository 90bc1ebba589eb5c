/**
 * @module One transaction under a transaction-scoped advisory lock: how a PostgreSQL store makes "find, or
 * else create" atomic across every instance sharing the database.
 */
import type pg from "pg";

/** Runs `work` on one connection in a transaction holding the advisory lock named `lock` until it ends. */
export async function underLock<Result>(
  pool: pg.Pool,
  lock: string,
  work: (client: pg.PoolClient) => Promise<Result>,
): Promise<Result> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
    await client.query("SELECT pg_advisory_xact_lock(hashtext($1))", [lock]);
    const result = await work(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
