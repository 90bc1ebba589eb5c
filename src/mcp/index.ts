/** @module toolreg/mcp — the registry served as an MCP server, and other MCP servers' tools imported. */

export * from "./import/index.js";
export { MCP_CONTENT_KEY, mcpContent } from "./serve/call-tool-result.js";
export { type CallIdentity, type McpClientChannel, mcpClientOf } from "./serve/client-channel.js";
export { createMcpServer, type McpRequestInfo, type McpServerOptions } from "./serve/create-mcp-server.js";
export { artifactResources } from "./serve/resources/artifact-resources.js";
export {
  defineMcpResources,
  type FixedResource,
  type McpResourcesDefinition,
  type TemplatedResource,
} from "./serve/resources/define-mcp-resources.js";
export { keptOutputResources, keptOutputUri } from "./serve/resources/kept-output-resources.js";
export type {
  McpResourceContents,
  McpResourceSource,
  ResourceChanges,
} from "./serve/resources/resource-source.js";
export { toolDocsUri } from "./serve/resources/tool-docs-resources.js";
export { serveStdio } from "./serve/serve-stdio.js";
