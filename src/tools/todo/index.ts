/** @module The todo toolkit: a run's plan as a todo list, kept in a TodoStore. */
import type { TodoStore } from "../../ports/todo-store.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { todoToolkit } from "./toolkit.js";

export { renderTodoList } from "./todo-result.js";
export { todoToolkit } from "./toolkit.js";

export interface TodoToolDeps {
  /** Where each run's list is kept; without one there is no todo_write or todo_read. */
  todos?: TodoStore;
}

export const todoTools: ToolModule<TodoToolDeps> = (deps) =>
  deps.todos ? todoToolkit.withEnv({ todos: deps.todos, now: Date.now }) : [];
