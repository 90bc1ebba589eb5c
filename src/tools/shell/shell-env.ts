/** @module What shell_exec runs against: the sandbox, and the limits each command gets. */
import type { Sandbox } from "../../sandbox/sandbox.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface ShellExecOptions {
  /** Memory cap per command, swap included; default 512 MiB. Per process where the sandbox has no cgroups. */
  memoryBytes?: number;
  /** Most processes and threads per command at once; default 256. Not enforced where the sandbox has no cgroups. */
  pidsLimit?: number;
  /** Bytes kept per stream (stdout, stderr); default 32 KiB. */
  maxOutputBytes?: number;
}

export interface ShellEnv {
  sandbox: Sandbox;
  options: ShellExecOptions;
}

export const shellTool = toolFor<ShellEnv>();
