/** @module OpenAI Responses: `function_call` output items in, `function_call_output` input items out. */
import { envelopeText } from "../../seam/envelope.js";
import { isRecord } from "./json-value.js";
import { parseCall } from "./parse-call.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** A Responses input item: the answer to one `function_call`. */
export interface OpenAIResponsesFunctionCallOutput {
  type: "function_call_output";
  call_id: string;
  output: string;
}

/** Reads a response's `output` items; messages, reasoning and every other item type are not calls. */
export function parseOpenAIResponsesToolCalls(output: unknown): ParsedToolCall[] {
  if (!Array.isArray(output)) return [];
  return output
    .filter((item): item is Record<string, unknown> => isRecord(item) && item.type === "function_call")
    .map((item, index) =>
      parseCall({
        provider: "openai-responses",
        index,
        id: item.call_id,
        idRequired: true,
        name: item.name,
        arguments: item.arguments,
      }),
    );
}

/** One `function_call_output` item per call, in call order. */
export function renderOpenAIResponsesToolResults(
  results: readonly ToolCallResult[],
): OpenAIResponsesFunctionCallOutput[] {
  return results.map(({ call, envelope }) => ({
    type: "function_call_output",
    call_id: call.providerId ?? call.id,
    output: envelopeText(envelope),
  }));
}
