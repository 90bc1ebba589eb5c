/**
 * @module The audio toolkit's configuration: which engine transcribes and which speaks. A tool whose
 * engine is not configured does not exist; OpenAI needs the reference of its key, espeak-ng none.
 */

import { z } from "zod";
import { apiRootUrl } from "../toolkit/api-root.js";

export const OPENAI_BASE_URL = "https://api.openai.com/v1";
export const TRANSCRIPTION_MODELS = ["whisper-1", "gpt-4o-transcribe", "gpt-4o-mini-transcribe"] as const;
export const SPEECH_MODELS = ["gpt-4o-mini-tts", "tts-1", "tts-1-hd"] as const;

const credentialRef = z.string().min(1).max(200).meta({
  description: "the credential OpenAI's API key is resolved from, per call; never the key itself",
});

const baseUrl = apiRootUrl().meta({
  description: `the API root, ${OPENAI_BASE_URL} when omitted (a proxy, or a fake in tests)`,
});

const TranscriptionConfigSchema = z.strictObject({
  provider: z.literal("openai"),
  credentialRef,
  baseUrl: baseUrl.optional(),
  model: z
    .enum(TRANSCRIPTION_MODELS)
    .optional()
    .meta({ description: "the transcription model; whisper-1 when omitted" }),
});

const SpeechConfigSchema = z.discriminatedUnion("provider", [
  z.strictObject({
    provider: z.literal("openai"),
    credentialRef,
    baseUrl: baseUrl.optional(),
    model: z
      .enum(SPEECH_MODELS)
      .optional()
      .meta({ description: "the text-to-speech model; gpt-4o-mini-tts when omitted" }),
  }),
  z.strictObject({
    provider: z.literal("espeak"),
    timeoutMs: z.int().min(1_000).max(120_000).optional().meta({
      description: "how long espeak-ng may run for one text before it is killed; 30 s when omitted",
    }),
  }),
]);

export const AudioConfigSchema = z.strictObject({
  transcription: TranscriptionConfigSchema.optional().meta({
    description: "the engine behind transcribe; without one the tool does not exist",
  }),
  speech: SpeechConfigSchema.optional().meta({
    description:
      "the engine behind speech_generate: openai, or espeak (the local espeak-ng, no key); without one the tool does not exist",
  }),
});

export type AudioConfig = z.output<typeof AudioConfigSchema>;
export type TranscriptionConfig = z.output<typeof TranscriptionConfigSchema>;
export type SpeechConfig = z.output<typeof SpeechConfigSchema>;
