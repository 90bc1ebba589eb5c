/**
 * @module The MCP servers `--mcp-config` names, imported for one command: their pins are kept in the
 * CLI's stores (so `toolreg mcp accept` reaches them), drift and withheld tools are said on stderr,
 * and credentials are `env:NAME` references to the CLI's environment. An OAuth import keeps its tokens in
 * the sealed credential store and asks for consent through the server's start link and callback.
 */
import { resolve } from "node:path";
import type { McpImport, McpImportEvent } from "../mcp/import/mcp-server.js";
import type { McpOAuthHost } from "../mcp/import/oauth/mcp-oauth-settings.js";
import type { ArtifactStore } from "../ports/artifact-store.js";
import type { SealedStores } from "../ports/deployment-stores.js";
import type { PinStore } from "../ports/pin-store.js";
import type { AnyTool } from "../registry/registry.js";
import type { ConsentExchanges } from "../seam/consent/consent-exchange.js";
import type { CredentialResolver } from "../seam/context.js";
import { CALLBACK_PATH, START_PATH } from "../server/server-credentials.js";
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

/** Whom an OAuth import's consent is asked of by default, and where the server's browser pages are. */
export interface ImportOwner {
  tenant: string;
  principal: string;
  /** The registry server's origin; an OAuth import needs it (only `serve` has a callback). */
  publicUrl?: string | undefined;
}

export async function importMcpServers(
  configPath: string,
  stores: { pins: PinStore; sealed?: SealedStores | undefined; artifacts?: ArtifactStore | undefined },
  io: CliIo,
  owner: ImportOwner,
): Promise<ImportedServers> {
  const configs = loadMcpConfig(resolve(io.cwd, configPath), owner);
  // The MCP client is loaded only by a command that imports a server: every other command starts without it.
  const { mcpServer } = await import("../mcp/import/mcp-server.js");
  const oauthHost = oauthHostOf(stores.sealed, owner.publicUrl);
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
            pins: stores.pins,
            ...(stores.artifacts ? { artifacts: stores.artifacts } : {}),
            ...(oauthHost ? { oauthHost } : {}),
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

/** The consents each OAuth import completes at the server's callback, by provider (`mcp:<name>`). */
export function consentExchangesOf(imports: readonly McpImport[]): ConsentExchanges {
  return (provider) => imports.find((imported) => `mcp:${imported.name}` === provider)?.consentExchange;
}

/** The sealed stores and the server's consent pages, when both exist: without them no import can use OAuth. */
function oauthHostOf(
  sealed: SealedStores | undefined,
  publicUrl: string | undefined,
): McpOAuthHost | undefined {
  if (!sealed || !publicUrl) return undefined;
  const origin = publicUrl.replace(/\/$/, "");
  return {
    credentials: sealed.credentials,
    consents: sealed.consents,
    redirectUri: () => `${origin}${CALLBACK_PATH}`,
    consentLink: (consentId) => `${origin}${START_PATH}/${encodeURIComponent(consentId)}`,
  };
}

/** Only what an operator must act on is said: a drifted or withheld tool, a server gone, a consent to give. */
function say(io: CliIo, event: McpImportEvent): void {
  if (event.type === "mcp.drift") {
    io.stderr(
      `toolreg: MCP server ${event.server}: ${event.tool} changed since it was accepted${event.withheld ? "; withheld until" : "; served anyway (onDrift: report). Accept it with"} toolreg mcp accept ${event.server} ${event.tool}\n`,
    );
  } else if (event.type === "mcp.withheld") {
    io.stderr(`toolreg: MCP server ${event.server}: ${event.tool} withheld: ${event.reason}\n`);
  } else if (event.type === "mcp.authorization_required") {
    io.stderr(
      `toolreg: MCP server ${event.server} needs authorization: ${event.principalId} should open ${event.consentUrl} signed in to the console as ${event.principalId}\n`,
    );
  } else if (event.type === "mcp.disconnected") {
    io.stderr(`toolreg: MCP server ${event.server}: ${event.message}; reconnecting\n`);
  }
}
