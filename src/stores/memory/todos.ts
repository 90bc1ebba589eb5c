/** @module The reference todo store, in process memory: one list per run, replaced whole on each write. */
import {
  checkedTodoItems,
  staleRevision,
  type TodoKey,
  type TodoList,
  type TodoStore,
} from "../../ports/todo-store.js";

interface Kept extends TodoList {
  updatedAt: number;
}

export function createMemoryTodoStore(): TodoStore {
  const lists = new Map<string, Kept>();
  // A JSON array cannot collide the way joined strings could ("a:b" + "c" and "a" + "b:c").
  const keyOf = ({ tenantId, principalId, runId }: TodoKey) => JSON.stringify([tenantId, principalId, runId]);
  const copy = ({ items, revision }: TodoList): TodoList => ({
    items: items.map((item) => ({ ...item })),
    revision,
  });
  return {
    async read(key) {
      const kept = lists.get(keyOf(key));
      return kept ? copy(kept) : { items: [], revision: 0 };
    },
    async write(key, { items, expectedRevision, now }) {
      const checked = checkedTodoItems(items);
      const current = lists.get(keyOf(key))?.revision ?? 0;
      if (expectedRevision !== undefined && expectedRevision !== current)
        throw staleRevision(expectedRevision, current);
      const kept: Kept = { items: checked, revision: current + 1, updatedAt: now };
      lists.set(keyOf(key), kept);
      return copy(kept);
    },
    async purge({ before }) {
      let purged = 0;
      for (const [key, kept] of lists) {
        if (kept.updatedAt >= before) continue;
        lists.delete(key);
        purged++;
      }
      return purged;
    },
  };
}
