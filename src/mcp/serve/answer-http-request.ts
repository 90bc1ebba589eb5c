/** @module One MCP request over Streamable HTTP, answered statelessly by a server made for it alone. */
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { createMcpServer, type McpServerOptions } from "./create-mcp-server.js";

/**
 * Stateless (no session id) with JSON answers, not SSE: each POST stands alone, any instance can answer
 * it, and the response is whole once every call in it has run, so a host can count it as in flight.
 * Without a session there is no stream to announce `list_changed` on; clients re-list when they need to.
 */
export async function answerMcpHttpRequest(
  request: Request,
  options: Omit<McpServerOptions, "registry">,
): Promise<Response> {
  const server = createMcpServer(options);
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request);
  } finally {
    await server.close();
  }
}
