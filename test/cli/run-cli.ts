import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const CLI = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built `toolreg` executable as a user would, in `cwd`. */
export function runToolreg(
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { cwd, env: { ...withoutToolregDb(process.env), ...env }, timeout: 20_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function withoutToolregDb(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TOOLREG_DB: _ignored, ...rest } = env;
  return rest;
}

/** What the CLI serves with no flags: shell_exec only where bubblewrap works (CI installs it). */
export const DEFAULT_SERVED = [
  "now",
  "calculate",
  "think",
  "sleep",
  "fetch_url",
  "fetch_json",
  "http_request",
  "http_write",
  "parse_csv",
  "query_json",
  ...(existsSync("/usr/bin/bwrap") ? ["shell_exec"] : []),
  "todo_write",
  "todo_read",
  "memory_save",
  "memory_search",
  "memory_forget",
  "schedule_create",
  "schedule_list",
  "schedule_cancel",
  "search_knowledge",
  "read_knowledge",
  "ask_questions",
  "request_approval",
  "list_attachments",
  "read_attachment",
  "read_document",
  "load_skill",
  "skill_manage",
  "find_tools",
  "learn_tools",
  "execute_tool",
  "read_tool_output",
];
