/** @module The shell toolkit: `shell_exec`, which exists exactly when a sandbox is supplied. */

import type { ToolModule } from "../../registry/tool-module.js";
import type { Sandbox } from "../../sandbox/sandbox.js";
import type { ShellExecOptions } from "./shell-exec.js";
import { shellToolkit } from "./toolkit.js";

export { detectSandbox } from "../../sandbox/detect-sandbox.js";
export { describeSandbox } from "./describe-sandbox.js";
export {
  DEFAULT_SHELL_MEMORY_BYTES,
  DEFAULT_SHELL_PIDS_LIMIT,
  DEFAULT_SHELL_TIMEOUT_MS,
  MAX_SHELL_TIMEOUT_MS,
  type ShellExecOptions,
} from "./shell-exec.js";
export { shellToolkit } from "./toolkit.js";

export interface ShellToolDeps {
  /** Where commands run; without one there is no shell tool (see `detectSandbox`). */
  sandbox?: Sandbox;
  shell?: ShellExecOptions;
}

export const shellTools: ToolModule<ShellToolDeps> = (deps) =>
  deps.sandbox ? shellToolkit.withEnv({ sandbox: deps.sandbox, options: deps.shell ?? {} }) : [];
