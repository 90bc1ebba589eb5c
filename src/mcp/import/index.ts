/** @module Importing another MCP server's tools: the module, its pins, and keeping a registry in step. */

export type { PinnedDefinition, PinStore, ToolPin } from "../../ports/pin-store.js";
export { type Classification, classifyEffect } from "./classify-effect.js";
export { importedNames, snakeCase } from "./imported-name.js";
export {
  type ImportedToolReport,
  type McpImport,
  type McpImportEvent,
  type McpImportOptions,
  type McpTransportConfig,
  mcpServer,
} from "./mcp-server.js";
export { createMemoryPinStore } from "./pin-store.js";
export { definitionHash, pinnedDefinitionOf } from "./pinned-definition.js";
export { syncRegistry } from "./sync-registry.js";
