/**
 * @module An upstream MCP server on 127.0.0.1 over Streamable HTTP, as import tests need one: each session
 * gets its own SDK server from `serverFor`, so a test writes only what its upstream answers.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

export interface McpHttpUpstream {
  /** The endpoint, `http://127.0.0.1:<port>/mcp`. */
  url: string;
  close(): Promise<void>;
}

export async function serveMcpOverHttp(serverFor: () => Server): Promise<McpHttpUpstream> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http = createServer(async (request, response) => {
    const id = request.headers["mcp-session-id"];
    let transport = typeof id === "string" ? sessions.get(id) : undefined;
    if (!transport) {
      const created = new StreamableHTTPServerTransport({
        sessionIdGenerator: randomUUID,
        onsessioninitialized: (session) => {
          sessions.set(session, created);
        },
      });
      transport = created;
      await serverFor().connect(transport);
    }
    await transport.handleRequest(request, response);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}
