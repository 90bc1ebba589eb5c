/** @module `todo_read`: this run's todo list as it is stored now. */
import { z } from "zod";
import { todoKeyOf, todoTool } from "./todo-env.js";
import { TodoListSchema, todoResult } from "./todo-result.js";

export const todoReadSpec = todoTool({
  name: "todo_read",
  description:
    "Reads this run's todo list: each item's id, status and step, and the list's revision. Use it to pick the plan up again after a long stretch of work, or when another agent of this run may have changed it; todo_write already shows the list after each write.",
  category: "general",
  effect: "read",
  input: z.object({}),
  output: TodoListSchema,
  async run(_input, context, { todos }) {
    return todoResult(await todos.read(todoKeyOf(context)));
  },
});
