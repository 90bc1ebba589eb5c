/**
 * @module The MCP servers `--mcp-config` names, imported for one command: their pins are kept in the
 * CLI's stores (so `toolreg mcp accept` reaches them), drift and withheld tools are said on stderr,
 * and credentials are `env:NAME` references to the CLI's environment.
 */
import { resolve } from "node:path";
import type { McpImport, McpImportEvent } from "../mcp/import/mcp-server.js";
import { mcpServer } from "../mcp/import/mcp-server.js";
import type { PinStore } from "../ports/pin-store.js";
import type { AnyTool } from "../registry/registry.js";
import type { CredentialResolver } from "../seam/context.js";
import { type CliIo, UsageError } from "./cli-io.js";
import { loadMcpConfig } from "./mcp-config.js";

export interface ImportedServers {
  tools: readonly AnyTool[];
  imports: readonly McpImport[];
  close(): Promise<void>;
}

/** `env:NAME` → the variable's value; any other reference is not the CLI's to resolve. */
export function envCredentials(env: CliIo["env"]): CredentialResolver {
  return {
    resolve: async (ref) => {
      const match = /^env:([A-Za-z_][A-Za-z0-9_]*)$/.exec(ref);
      const value = match?.[1] ? env[match[1]] : undefined;
      if (value === undefined || value === "") throw new Error(`the credential "${ref}" is not set`);
      return value;
    },
  };
}

export async function importMcpServers(
  configPath: string,
  pins: PinStore,
  io: CliIo,
): Promise<ImportedServers> {
  const configs = loadMcpConfig(resolve(io.cwd, configPath));
  const imports: McpImport[] = [];
  const close = async () => {
    await Promise.allSettled(imports.map((imported) => imported.close()));
  };
  try {
    for (const config of configs) {
      try {
        imports.push(
          await mcpServer({
            ...config,
            pins,
            credentials: envCredentials(io.env),
            onEvent: (event) => say(io, event),
          }),
        );
      } catch (error) {
        throw new UsageError(`MCP server ${config.name}: ${(error as Error).message.split("\n")[0]}`);
      }
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { tools: imports.flatMap((imported) => imported.tools()), imports, close };
}

/** Only what an operator must act on is said: a drifted or withheld tool, a server gone. */
function say(io: CliIo, event: McpImportEvent): void {
  if (event.type === "mcp.drift") {
    io.stderr(
      `toolreg: MCP server ${event.server}: ${event.tool} changed since it was accepted${event.withheld ? "; withheld until" : "; served anyway (onDrift: report). Accept it with"} toolreg mcp accept ${event.server} ${event.tool}\n`,
    );
  } else if (event.type === "mcp.withheld") {
    io.stderr(`toolreg: MCP server ${event.server}: ${event.tool} withheld: ${event.reason}\n`);
  } else if (event.type === "mcp.disconnected") {
    io.stderr(`toolreg: MCP server ${event.server}: ${event.message}; reconnecting\n`);
  }
}
