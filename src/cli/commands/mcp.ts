/** @module `toolreg mcp`: the served tools as an MCP server on stdin and stdout, until stdin closes. */
import { createMcpServer } from "../../mcp/serve/create-mcp-server.js";
import { serveStdio } from "../../mcp/serve/serve-stdio.js";
import type { CliState } from "../cli-state.js";

/**
 * Every call is the operator's (--tenant, --principal, --mode), with a fresh tool-call id. Stdout carries
 * the protocol and nothing else: the CLI's logger already writes to stderr.
 */
export async function mcpCommand(state: CliState): Promise<number> {
  const server = createMcpServer({
    seam: state.seam,
    // A client's cancellation reaches the tool through the request's signal.
    context: ({ toolCallId, signal }) => Object.freeze({ ...state.context({ toolCallId }), signal }),
  });
  await serveStdio(server);
  return 0;
}
