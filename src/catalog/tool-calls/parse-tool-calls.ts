/** @module `parseToolCalls`: a provider's tool calls, read from whatever the model's message holds. */
import type { CatalogProvider } from "../render-catalog.js";
import { parseAnthropicToolCalls } from "./anthropic.js";
import { parseGeminiToolCalls } from "./gemini.js";
import { parseMcpToolCalls } from "./mcp.js";
import { parseOpenAIChatToolCalls } from "./openai-chat.js";
import { parseOpenAIResponsesToolCalls } from "./openai-responses.js";
import type { ParsedToolCall } from "./types.js";

const parsers: { [P in CatalogProvider]: (message: unknown) => ParsedToolCall[] } = {
  "openai-chat": parseOpenAIChatToolCalls,
  "openai-responses": parseOpenAIResponsesToolCalls,
  anthropic: parseAnthropicToolCalls,
  gemini: parseGeminiToolCalls,
  mcp: parseMcpToolCalls,
};

/**
 * The calls in `message`, in order: an OpenAI Chat assistant message, a Responses `output` array, an
 * Anthropic assistant message, a Gemini candidate content, or MCP `tools/call` params. Never throws. A
 * call that cannot be read is a refused call whose envelope tells the model why; a message with no
 * readable calls at all (null, a string, `tool_calls` not an array …) has none, like a plain text reply,
 * since there is no call id to answer. MCP params always give one call: the request needs its result.
 */
export function parseToolCalls(provider: CatalogProvider, message: unknown): ParsedToolCall[] {
  return parsers[provider](message);
}
