/** @module The round trip: each provider's tool calls parsed, run through the seam, and answered in its format. */
export type { AnthropicToolResultBlock, AnthropicToolResultMessage } from "./anthropic.js";
export type { GeminiFunctionResponse, GeminiFunctionResponseContent } from "./gemini.js";
export type { McpCallToolResult, McpTextContent } from "./mcp.js";
export type { OpenAIChatToolMessage } from "./openai-chat.js";
export type { OpenAIResponsesFunctionCallOutput } from "./openai-responses.js";
export { parseToolCalls } from "./parse-tool-calls.js";
export { renderToolResults, type ToolResultFormats } from "./render-tool-results.js";
export { type RunToolCallsOptions, type RunToolCallsResult, runToolCalls } from "./run-tool-calls.js";
export type { ParsedToolCall, ToolCallResult } from "./types.js";
