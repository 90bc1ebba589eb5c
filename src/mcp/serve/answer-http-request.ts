/** @module One MCP request over Streamable HTTP, answered statelessly by a server made for it alone. */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";

/**
 * Stateless (no session id) with JSON answers, not SSE: each POST stands alone, any instance can answer
 * it, and the response is whole once every call in it has run. Without a session there is no stream to
 * send notifications on and no client handshake to know its capabilities from, so a call here reports no
 * progress and asks the client nothing; `McpHttpSessions` offers a session to a client that initializes.
 */
export async function answerMcpHttpRequest(
  request: Request,
  server: Server,
  body?: unknown,
): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, body === undefined ? undefined : { parsedBody: body });
  } finally {
    await server.close();
  }
}
