/** @module One transaction on one pooled connection, committed when `work` resolves and rolled back when it throws. */
import type pg from "pg";

/** Runs `work` on one connection inside BEGIN … COMMIT; a rejection of `work` rolls back and is rethrown. */
export async function inTransaction<Result>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<Result>,
): Promise<Result> {
  const client = await pool.connect();
  try {
    await client.query("BEGIN");
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
