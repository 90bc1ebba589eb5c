/** @module What the todo tools run against: the store of each run's list, and the clock its writes are dated by. */
import type { TodoKey, TodoStore } from "../../ports/todo-store.js";
import type { ExecutionContext } from "../../seam/context.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface TodoEnv {
  todos: TodoStore;
  /** Epoch milliseconds; a list is purged a retention after its last write. */
  now: () => number;
}

export const todoTool = toolFor<TodoEnv>();

/** The list a call reaches: its own run's, from the context the seam built, never from the model's input. */
export const todoKeyOf = ({ tenantId, principalId, runId }: ExecutionContext): TodoKey => ({
  tenantId,
  principalId,
  runId,
});
