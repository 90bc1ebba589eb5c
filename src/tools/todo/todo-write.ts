/** @module `todo_write`: replaces this run's todo list with the whole list the model gives. */
import { z } from "zod";
import { TODO_LIMITS, TODO_STATUSES, type TodoItem } from "../../ports/todo-store.js";
import { todoKeyOf, todoTool } from "./todo-env.js";
import { TodoListSchema, todoResult } from "./todo-result.js";

const input = z.object({
  items: z
    .array(
      z.object({
        id: z
          .string()
          .max(TODO_LIMITS.idChars)
          .optional()
          .describe("the item's id from the last result; omit for a new item and one is given"),
        content: z
          .string()
          .min(1)
          .max(TODO_LIMITS.contentChars)
          .describe("the step, as a short imperative: what will be done"),
        status: z.enum(TODO_STATUSES).describe("pending, in_progress (one item at most) or completed"),
      }),
    )
    .max(TODO_LIMITS.items)
    .describe("the whole list, in the order to work through it; it replaces the list stored"),
  expectedRevision: z
    .number()
    .int()
    .nonnegative()
    // A revision is a 32-bit integer on PostgreSQL; no list is written two billion times.
    .max(2 ** 31 - 1)
    .optional()
    .describe(
      "the revision of the list this one was made from; the write is refused if the list changed since",
    ),
});

/** Ids for the items that came without one: the smallest numbers no other item of the list uses. */
function withIds(items: readonly { id?: string | undefined; content: string; status: TodoItem["status"] }[]) {
  const taken = new Set(items.flatMap((item) => (item.id === undefined ? [] : [item.id])));
  let next = 0;
  const nextId = () => {
    do next++;
    while (taken.has(String(next)));
    return String(next);
  };
  return items.map(({ id, content, status }): TodoItem => ({ id: id ?? nextId(), content, status }));
}

export const todoWriteSpec = todoTool({
  name: "todo_write",
  description: [
    "Keeps the plan for this run as a todo list; each call writes the whole list, which replaces the last one.",
    "Use it for work of three or more steps, or when asked to do several things; skip it for one quick step.",
    "Keep exactly one item in_progress, the one being worked on now. Mark an item completed as soon as it is done, not in a batch at the end;",
    "add steps found along the way and drop those no longer needed.",
    "Reuse the ids the last result shows, so each item stays the same item.",
    "The list belongs to this run alone. Where other agents of the run may write it too, pass expectedRevision from the last result.",
  ].join(" "),
  category: "general",
  effect: "internal-write",
  input,
  output: TodoListSchema,
  async run({ items, expectedRevision }, context, { todos, now }) {
    const written = await todos.write(todoKeyOf(context), {
      items: withIds(items),
      ...(expectedRevision === undefined ? {} : { expectedRevision }),
      now: now(),
    });
    return todoResult(written);
  },
});
