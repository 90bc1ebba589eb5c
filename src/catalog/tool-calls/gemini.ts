/** @module Gemini: `functionCall` parts in, one user content of `functionResponse` parts out. */
import { type ErrorCode, envelopeText } from "../../seam/envelope.js";
import { isRecord } from "./json-value.js";
import { parseCall } from "./parse-call.js";
import type { ParsedToolCall, ToolCallResult } from "./types.js";

/** The answer to one `functionCall`. */
export interface GeminiFunctionResponse {
  name: string;
  /** Only when the call had one: an id Gemini never issued would match nothing. */
  id?: string;
  response: { output: string } | { error: { code: ErrorCode; message: string } };
}

/** The user content that carries a turn's function responses. */
export interface GeminiFunctionResponseContent {
  role: "user";
  parts: { functionResponse: GeminiFunctionResponse }[];
}

/** Reads a candidate content's `functionCall` parts; text and thought parts are not calls. */
export function parseGeminiToolCalls(content: unknown): ParsedToolCall[] {
  const parts = isRecord(content) ? content.parts : undefined;
  if (!Array.isArray(parts)) return [];
  return parts
    .filter((part): part is Record<string, unknown> => isRecord(part) && part.functionCall !== undefined)
    .map((part, index) => {
      const call = isRecord(part.functionCall) ? part.functionCall : {};
      // Gemini's ids are optional: without one, the seam gets a generated id and the response none.
      return parseCall({
        provider: "gemini",
        index,
        id: call.id,
        idRequired: false,
        name: call.name,
        arguments: call.args,
      });
    });
}

/**
 * One user content holding a `functionResponse` per call, in call order, or nothing when there were no
 * calls. Failures go under `error`, which Gemini reads as the call having failed.
 */
export function renderGeminiToolResults(results: readonly ToolCallResult[]): GeminiFunctionResponseContent[] {
  if (results.length === 0) return [];
  const parts = results.map(({ call, envelope }) => {
    const text = envelopeText(envelope);
    const functionResponse: GeminiFunctionResponse = {
      name: call.name,
      response: envelope.ok ? { output: text } : { error: { code: envelope.error.code, message: text } },
    };
    if (call.providerId !== undefined) functionResponse.id = call.providerId;
    return { functionResponse };
  });
  return [{ role: "user", parts }];
}
