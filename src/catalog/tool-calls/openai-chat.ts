/** @module OpenAI Chat Completions: an assistant message's `tool_calls` in, one `tool` message per call out. */
import { envelopeText } from "../../seam/envelope.js";
import { isRecord } from "./json-value.js";
import { parseCall } from "./parse-call.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** A Chat Completions `tool` message: the answer to one call. */
export interface OpenAIChatToolMessage {
  role: "tool";
  tool_call_id: string;
  content: string;
}

/** Every entry of `tool_calls` is a call to answer, so an unreadable entry becomes a refused call. */
export function parseOpenAIChatToolCalls(message: unknown): ParsedToolCall[] {
  const calls = isRecord(message) ? message.tool_calls : undefined;
  if (!Array.isArray(calls)) return [];
  // Array.from, not map: a sparse array's holes must become calls too, not holes in the result.
  return Array.from(calls, (call: unknown, index) => {
    const fields = isRecord(call) ? call : {};
    const fn = isRecord(fields.function) ? fields.function : {};
    return parseCall({
      provider: "openai-chat",
      index,
      id: fields.id,
      idRequired: true,
      name: fn.name,
      arguments: fn.arguments,
    });
  });
}

/** One `tool` message per call, in call order. */
export function renderOpenAIChatToolResults(results: readonly ToolCallResult[]): OpenAIChatToolMessage[] {
  return results.map(({ call, envelope }) => ({
    role: "tool",
    tool_call_id: call.providerId ?? call.id,
    content: envelopeText(envelope),
  }));
}
