/**
 * @module SQLite run todo lists, in the shared state file. Each write is one statement, so a write and a
 * stale-revision refusal are decided atomically however many processes share the file.
 */
import type Database from "better-sqlite3";
import {
  checkedTodoItems,
  staleRevision,
  type TodoItem,
  type TodoKey,
  type TodoStore,
} from "../../ports/todo-store.js";

type Key = [tenantId: string, principalId: string, runId: string];
type Written = [...Key, items: string, now: number];

const keyOf = ({ tenantId, principalId, runId }: TodoKey): Key => [tenantId, principalId, runId];

export function createSqliteTodoStore(db: Database.Database): TodoStore {
  const read = db.prepare<Key, { items: string; revision: number }>(
    "SELECT items, revision FROM todo_lists WHERE tenant_id = ? AND principal_id = ? AND run_id = ?",
  );
  const insert =
    "INSERT INTO todo_lists (tenant_id, principal_id, run_id, items, revision, updated_at) VALUES (?, ?, ?, ?, 1, ?)";
  // Unchecked: the list is created, or replaced whatever its revision.
  const replace = db.prepare<Written, { revision: number }>(
    `${insert} ON CONFLICT (tenant_id, principal_id, run_id) DO UPDATE
       SET items = excluded.items, revision = revision + 1, updated_at = excluded.updated_at
     RETURNING revision`,
  );
  // Expecting revision 0: only a list never written is created.
  const create = db.prepare<Written, { revision: number }>(
    `${insert} ON CONFLICT DO NOTHING RETURNING revision`,
  );
  // Expecting revision N: only the list still at N is replaced.
  const update = db.prepare<[items: string, now: number, ...Key, expected: number], { revision: number }>(
    `UPDATE todo_lists SET items = ?, revision = revision + 1, updated_at = ?
     WHERE tenant_id = ? AND principal_id = ? AND run_id = ? AND revision = ?
     RETURNING revision`,
  );
  const purge = db.prepare<[number]>("DELETE FROM todo_lists WHERE updated_at < ?");
  const currentRevision = (key: Key) => read.get(...key)?.revision ?? 0;
  return {
    async read(key) {
      const row = read.get(...keyOf(key));
      return row
        ? { items: JSON.parse(row.items) as TodoItem[], revision: row.revision }
        : { items: [], revision: 0 };
    },
    async write(key, { items, expectedRevision, now }) {
      const checked = checkedTodoItems(items);
      const json = JSON.stringify(checked);
      const at = keyOf(key);
      const written =
        expectedRevision === undefined
          ? replace.get(...at, json, now)
          : expectedRevision === 0
            ? create.get(...at, json, now)
            : update.get(json, now, ...at, expectedRevision);
      if (!written) throw staleRevision(expectedRevision ?? 0, currentRevision(at));
      return { items: checked, revision: written.revision };
    },
    async purge({ before }) {
      return purge.run(before).changes;
    },
  };
}
