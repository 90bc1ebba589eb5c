/**
 * @module The flags that wire tools, and the state they live in: what a later command must be given to
 * decide an approval this one parked (`toolreg approvals approve` run without them would find the tool
 * missing), and which flag serves which first-party tool, for the error that says so.
 */
import { isAbsolute, resolve } from "node:path";
import type { Command } from "commander";

/** Global options that decide what a command serves and where its state is; written as they were typed. */
const WIRING: readonly { option: string; flag: string; path?: boolean }[] = [
  { option: "db", flag: "--db", path: true },
  { option: "config", flag: "--config", path: true },
  { option: "registry", flag: "--registry", path: true },
  { option: "mcpConfig", flag: "--mcp-config", path: true },
  { option: "artifactsDir", flag: "--artifacts-dir", path: true },
  { option: "readRoot", flag: "--read-root", path: true },
  { option: "writeRoot", flag: "--write-root", path: true },
  { option: "sqlRead", flag: "--sql-read", path: true },
  { option: "sqlWrite", flag: "--sql-write", path: true },
  { option: "egressAllow", flag: "--egress-allow" },
  { option: "tenant", flag: "--tenant" },
];

/** The first-party tools each wiring flag serves; `toolreg`'s own tests hold this to `serveTools`. */
export const WIRED_BY: Readonly<Record<string, readonly string[]>> = {
  "--read-root": ["fs_read", "fs_list", "fs_search"],
  "--write-root": ["fs_write"],
  "--artifacts-dir": ["file_generate"],
  "--sql-read": ["sql_query", "sql_schema"],
  "--sql-write": ["sql_write"],
};

/**
 * The wiring flags this command was given on its command line, quoted for a shell: paths made absolute
 * (`sqlite:PATH` too), and a database URL's password masked, since the line is printed.
 */
export function wiringFlags(program: Command, cwd: string): string {
  const words: string[] = [];
  for (const { option, flag, path } of WIRING) {
    if (program.getOptionValueSource(option) !== "cli") continue;
    const value: unknown = program.getOptionValue(option);
    for (const item of Array.isArray(value) ? value : [value]) {
      words.push(flag, shellQuote(path ? located(String(item), cwd) : String(item)));
    }
  }
  return words.join(" ");
}

/** A path (or `sqlite:PATH`) made absolute; a URL with its password masked. */
function located(text: string, cwd: string): string {
  if (text.startsWith("sqlite:")) return `sqlite:${located(text.slice("sqlite:".length), cwd)}`;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    try {
      const url = new URL(text);
      if (url.password) url.password = "****";
      return url.href;
    } catch {
      return text;
    }
  }
  return isAbsolute(text) ? text : resolve(cwd, text);
}

/** What serves a tool this command does not: the flag for a first-party one, else where else it can come from. */
export function whatServes(toolName: string): string {
  const flag = Object.entries(WIRED_BY).find(([, tools]) => tools.includes(toolName))?.[0];
  if (flag) return `${toolName} is served when ${flag} is given`;
  if (toolName === "shell_exec") return "shell_exec is served only where bubblewrap works";
  return `${toolName} comes from a catalogue (--registry) or an MCP server (--mcp-config) this command was not given`;
}

function shellQuote(text: string): string {
  return /^[A-Za-z0-9_./:@=,+-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}
