/**
 * @module Checks the OpenAI fake against OpenAI's own OpenAPI description: the speech request the adapter
 * sends (CreateSpeechRequest), and the fake's transcription and error answers (CreateTranscriptionResponseJson,
 * ErrorResponse). The schemas are an excerpt of openai/openai-openapi, kept beside this file (openai-audio-schemas.ts).
 */
import { Ajv } from "ajv";
import { OPENAI_AUDIO_SCHEMAS } from "./openai-audio-schemas.js";

// OpenAPI keywords (discriminator, format: binary) are not JSON Schema's: not strict, formats unchecked.
const ajv = new Ajv({ strict: false, validateFormats: false, allErrors: true });
ajv.addSchema({ $id: "openai", components: { schemas: OPENAI_AUDIO_SCHEMAS } });

export type OpenAiShape = "CreateSpeechRequest" | "CreateTranscriptionResponseJson" | "ErrorResponse";

/** The problems `value` has as `shape`, empty when it conforms. */
export function openApiProblems(shape: OpenAiShape, value: unknown): string[] {
  const validate = ajv.getSchema(`openai#/components/schemas/${shape}`);
  if (!validate) return [`no schema ${shape}`];
  if (validate(value)) return [];
  return (validate.errors ?? []).map(
    (error) => `${shape}${error.instancePath} ${error.message ?? "is invalid"}`,
  );
}
