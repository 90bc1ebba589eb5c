/** @module `toolreg mcp`: the served tools as an MCP server on stdin and stdout, until stdin closes. */
import type { McpImport } from "../../mcp/import/mcp-server.js";
import { syncRegistry } from "../../mcp/import/sync-registry.js";
import { createMcpServer } from "../../mcp/serve/create-mcp-server.js";
import { serveStdio } from "../../mcp/serve/serve-stdio.js";
import type { CliState } from "../cli-state.js";

/**
 * Every call is the operator's (--tenant, --principal, --mode), with a fresh tool-call id. Stdout carries
 * the protocol and nothing else: the CLI's logger already writes to stderr. Tools of imported servers
 * follow their upstream, and the client hears of each change.
 */
export async function mcpCommand(state: CliState, imports: readonly McpImport[] = []): Promise<number> {
  const unsubscribe = imports.map((imported) => syncRegistry(state.registry, imported));
  const server = createMcpServer({
    seam: state.seam,
    registry: state.registry,
    // A client's cancellation reaches the tool through the request's signal.
    context: ({ toolCallId, signal }) => state.context({ toolCallId, signal }),
  });
  try {
    await serveStdio(server);
  } finally {
    for (const stop of unsubscribe) stop();
  }
  return 0;
}
