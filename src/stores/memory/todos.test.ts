/** @module The memory todo store against the todo store conformance suite. */
import { runTodoStoreConformance } from "../../../test/conformance/todo-store.js";
import { createMemoryTodoStore } from "./todos.js";

runTodoStoreConformance("memory", async () => ({ store: createMemoryTodoStore(), cleanup: async () => {} }), {
  durable: false,
});
