/**
 * @module PostgreSQL run todo lists. Each write is one statement, so of writers on any instances that expect
 * the same revision one replaces the list and the others are refused.
 */
import type pg from "pg";
import {
  checkedTodoItems,
  staleRevision,
  type TodoItem,
  type TodoKey,
  type TodoStore,
} from "../../ports/todo-store.js";

const keyOf = ({ tenantId, principalId, runId }: TodoKey) => [tenantId, principalId, runId];

/** The todo store in the quoted `schema` (migrated). */
export function createPostgresTodoStore(pool: pg.Pool, schema: string): TodoStore {
  const table = `${schema}.todo_lists`;
  const ofKey = "tenant_id = $1 AND principal_id = $2 AND run_id = $3";
  const insert = `INSERT INTO ${table} AS t (tenant_id, principal_id, run_id, items, revision, updated_at)
    VALUES ($1, $2, $3, $4, 1, $5)`;
  // Unchecked: the list is created, or replaced whatever its revision.
  const replace = `${insert} ON CONFLICT (tenant_id, principal_id, run_id) DO UPDATE
    SET items = excluded.items, revision = t.revision + 1, updated_at = excluded.updated_at
    RETURNING revision`;
  // Expecting revision 0: only a list never written is created.
  const create = `${insert} ON CONFLICT DO NOTHING RETURNING revision`;
  // Expecting revision N: only the list still at N is replaced.
  const update = `UPDATE ${table} SET items = $4, revision = revision + 1, updated_at = $5
    WHERE ${ofKey} AND revision = $6 RETURNING revision`;
  const select = async (key: TodoKey) =>
    (
      await pool.query<{ items: TodoItem[]; revision: number }>(
        `SELECT items, revision FROM ${table} WHERE ${ofKey}`,
        keyOf(key),
      )
    ).rows[0];
  return {
    async read(key) {
      return (await select(key)) ?? { items: [], revision: 0 };
    },
    async write(key, { items, expectedRevision, now }) {
      const checked = checkedTodoItems(items);
      const values = [...keyOf(key), JSON.stringify(checked), now];
      const { rows } =
        expectedRevision === undefined
          ? await pool.query<{ revision: number }>(replace, values)
          : expectedRevision === 0
            ? await pool.query<{ revision: number }>(create, values)
            : await pool.query<{ revision: number }>(update, [...values, expectedRevision]);
      const written = rows[0];
      if (!written) throw staleRevision(expectedRevision ?? 0, (await select(key))?.revision ?? 0);
      return { items: checked, revision: written.revision };
    },
    async purge({ before }) {
      return (await pool.query(`DELETE FROM ${table} WHERE updated_at < $1`, [before])).rowCount ?? 0;
    },
  };
}
