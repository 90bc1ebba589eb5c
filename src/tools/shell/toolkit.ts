/** @module The shell toolkit: `shell_exec`, which exists exactly when the host has a working sandbox. */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { shellExecSpec } from "./shell-exec.js";

export const shellToolkit = defineToolkit({
  id: "shell",
  version: "1.0.0",
  package: "toolreg",
  description:
    "Runs shell commands in a sandbox with no network, a read-only root and capped memory, time and output.",
  config: z.strictObject({
    memoryBytes: z
      .int()
      .min(16 * 1024 * 1024)
      .max(64 * 1024 * 1024 * 1024)
      .optional()
      .meta({ description: "memory per command, swap included" }),
    pidsLimit: z
      .int()
      .min(1)
      .max(32_768)
      .optional()
      .meta({ description: "processes and threads per command at once" }),
    maxOutputBytes: z
      .int()
      .min(1024)
      .max(8 * 1024 * 1024)
      .optional()
      .meta({ description: "bytes kept per stream" }),
  }),
  auth: { kind: "none" },
  // Documented for bubblewrap, the Linux default; a host's own sandbox declares its name.
  tools: [shellExecSpec("bubblewrap")],
  toolsFor: ({ sandbox, options }) => [shellExecSpec(sandbox.name, options)],
  triage: {
    directed: [
      {
        tool: "shell_exec",
        package: "toolreg",
        why: "runs a command in a sandbox without network on the host: destructive, and local",
      },
    ],
  },
  // No sandbox, no shell: there is no unsandboxed fallback.
  bind: (options, host) => (host.sandbox ? { sandbox: host.sandbox, options } : undefined),
});
