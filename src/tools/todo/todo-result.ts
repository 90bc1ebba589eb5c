/**
 * @module A todo list as both tools return it: compact lines the model reads (a mark for each status, the
 * item's id to name it by in the next write), a nudge when the list breaks the one-in-progress habit, and
 * the list itself as data. Not fenced as untrusted, unlike a memory: the list is this run's own plan,
 * written by the same principal's agent to be followed, and each item is one line (no control character
 * passes the store's check), so an item cannot pass itself off as more items or as the summary line.
 */
import { z } from "zod";
import { TODO_STATUSES, type TodoList, type TodoStatus } from "../../ports/todo-store.js";

const MARKS: Record<TodoStatus, string> = { pending: "[ ]", in_progress: "[>]", completed: "[x]" };

export const TodoListSchema = z.object({
  items: z.array(z.object({ id: z.string(), content: z.string(), status: z.enum(TODO_STATUSES) })),
  revision: z.number().int().nonnegative(),
});

export function todoResult(list: TodoList): { content: string; data: TodoList } {
  return { content: renderTodoList(list), data: list };
}

/** `[x] 1: Read the invoice` per item, after a line that counts them and gives the revision. */
export function renderTodoList({ items, revision }: TodoList): string {
  if (items.length === 0) return `The todo list is empty (revision ${revision}).`;
  const count = (status: TodoStatus) => items.filter((item) => item.status === status).length;
  const lines = [
    `Todo list, revision ${revision}: ${count("completed")} of ${items.length} completed, ${count("in_progress")} in progress, ${count("pending")} pending.`,
    ...items.map((item) => `${MARKS[item.status]} ${item.id}: ${item.content}`),
  ];
  if (count("completed") === items.length) lines.push("Every item is completed.");
  else if (count("in_progress") === 0)
    lines.push("No item is in progress: mark the next one in_progress before starting on it.");
  return lines.join("\n");
}
