/** @module toolreg/mcp — the registry served as an MCP server, and other MCP servers' tools imported. */

export * from "./import/index.js";
export { createMcpServer, type McpRequestInfo, type McpServerOptions } from "./serve/create-mcp-server.js";
export { serveStdio } from "./serve/serve-stdio.js";
