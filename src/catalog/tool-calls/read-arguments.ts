/** @module A tool call's arguments as the object the seam takes, whether sent as an object or as JSON text. */
import { type ErrorEnvelope, failure } from "../../seam/envelope.js";
import { describeThrown } from "../../seam/to-envelope.js";
import { isRecord, kindOf } from "./json-value.js";

/** The arguments as an object, or the refusal to send back instead. */
export type ReadArguments =
  | { ok: true; input: Record<string, unknown> }
  | { ok: false; envelope: ErrorEnvelope };

const SEND_AN_OBJECT = 'send them again as one JSON object, e.g. {"name": "value"}';

/**
 * OpenAI sends arguments as JSON text, the others as an object, and proxies may send either. Missing,
 * null and blank text all mean "no arguments": some servers send "" for a call that takes none.
 */
export function readArguments(toolName: string, raw: unknown): ReadArguments {
  const tool = toolName.slice(0, 100);
  let value = raw;
  if (typeof raw === "string") {
    if (raw.trim() === "") return { ok: true, input: {} };
    try {
      value = JSON.parse(raw);
    } catch (error) {
      const reason = describeThrown(error).slice(0, 200);
      return refuse(`the arguments for ${tool} are not valid JSON (${reason}); ${SEND_AN_OBJECT}`);
    }
  }
  if (value === undefined || value === null) return { ok: true, input: {} };
  if (isRecord(value)) return { ok: true, input: value };
  return refuse(`the arguments for ${tool} are ${kindOf(value)}, not a JSON object; ${SEND_AN_OBJECT}`);
}

function refuse(message: string): ReadArguments {
  return { ok: false, envelope: failure("invalid_input", message) };
}
