/**
 * @module The todo toolkit: a run's plan, written whole and read back, kept in the deployment's todo store.
 * With no store on the host its tools are not served.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { todoReadSpec } from "./todo-read.js";
import { todoWriteSpec } from "./todo-write.js";

export const todoToolkit = defineToolkit({
  id: "todo",
  version: "1.0.0",
  package: "toolreg",
  description: "A todo list per run, for an agent to plan multi-step work and keep track of it.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [todoWriteSpec, todoReadSpec],
  bind: (_config, host) => (host.todos ? { todos: host.todos, now: Date.now } : undefined),
});
