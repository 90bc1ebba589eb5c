/** @module The module contract: a toolkit is a function from its dependencies to tools. */
import type { Tool } from "../declaration/define-tool.js";

/**
 * A toolkit. A missing dependency returns `[]`: a tool exists exactly when what it needs was supplied,
 * so there is no enable flag to drift from the wiring.
 */
// biome-ignore lint/suspicious/noExplicitAny: a module's tools have their own input/output types.
export type ToolModule<Deps = void> = (deps: Deps) => readonly Tool<any, any>[];
