/** @module `renderToolResults`: each call's envelope as the provider's tool-result message(s). */
import type { CatalogProvider } from "../render-catalog.js";
import { type AnthropicToolResultMessage, renderAnthropicToolResults } from "./anthropic.js";
import { type GeminiFunctionResponseContent, renderGeminiToolResults } from "./gemini.js";
import { type McpCallToolResult, renderMcpToolResult } from "./mcp.js";
import { type OpenAIChatToolMessage, renderOpenAIChatToolResults } from "./openai-chat.js";
import {
  type OpenAIResponsesFunctionCallOutput,
  renderOpenAIResponsesToolResults,
} from "./openai-responses.js";
import type { ToolCallResult } from "./types.js";

/**
 * What each provider gets back: for the four conversation APIs, the messages or items to append to the
 * conversation (empty when there were no calls); for MCP, the `tools/call` response's result.
 */
export interface ToolResultFormats {
  "openai-chat": OpenAIChatToolMessage[];
  "openai-responses": OpenAIResponsesFunctionCallOutput[];
  anthropic: AnthropicToolResultMessage[];
  gemini: GeminiFunctionResponseContent[];
  mcp: McpCallToolResult;
}

const renderers: {
  [P in CatalogProvider]: (results: readonly ToolCallResult[]) => ToolResultFormats[P];
} = {
  "openai-chat": renderOpenAIChatToolResults,
  "openai-responses": renderOpenAIResponsesToolResults,
  anthropic: renderAnthropicToolResults,
  gemini: renderGeminiToolResults,
  mcp: renderMcpToolResult,
};

/** Renders results in the order given; an error is flagged where the provider has a flag for it. */
export function renderToolResults<P extends CatalogProvider>(
  provider: P,
  results: readonly ToolCallResult[],
): ToolResultFormats[P] {
  return renderers[provider](results);
}
