/** @module Anthropic Messages: `tool_use` blocks in, one user message of `tool_result` blocks out. */
import { envelopeText } from "../../seam/envelope.js";
import { isRecord } from "./json-value.js";
import { parseCall } from "./parse-call.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** The answer to one `tool_use` block. */
export interface AnthropicToolResultBlock {
  type: "tool_result";
  tool_use_id: string;
  content: string;
  is_error?: true;
}

/** The user message that carries a turn's tool results. */
export interface AnthropicToolResultMessage {
  role: "user";
  content: AnthropicToolResultBlock[];
}

/** Reads an assistant message's `tool_use` blocks; text, thinking and server-tool blocks are not ours to run. */
export function parseAnthropicToolCalls(message: unknown): ParsedToolCall[] {
  const content = isRecord(message) ? message.content : undefined;
  if (!Array.isArray(content)) return [];
  return content
    .filter((block): block is Record<string, unknown> => isRecord(block) && block.type === "tool_use")
    .map((block, index) =>
      parseCall({
        provider: "anthropic",
        index,
        id: block.id,
        idRequired: true,
        name: block.name,
        arguments: block.input,
      }),
    );
}

/**
 * Anthropic wants every result of a turn in one user message: that message, with the results in call
 * order, or nothing when there were no calls (a message with empty content is refused).
 */
export function renderAnthropicToolResults(results: readonly ToolCallResult[]): AnthropicToolResultMessage[] {
  if (results.length === 0) return [];
  const content = results.map(({ call, envelope }): AnthropicToolResultBlock => {
    const block: AnthropicToolResultBlock = {
      type: "tool_result",
      tool_use_id: call.providerId ?? call.id,
      content: envelopeText(envelope),
    };
    if (!envelope.ok) block.is_error = true;
    return block;
  });
  return [{ role: "user", content }];
}
