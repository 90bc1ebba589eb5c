/**
 * @module OpenAI's text-to-speech adapter: POST /audio/speech with `{ model, input, voice, response_format }`
 * (https://platform.openai.com/docs/api-reference/audio/createSpeech), answered with the audio's bytes,
 * through egress, which injects the key. The voices and the 4,096-character input limit are the API's.
 */
import type { EgressClient } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { SpeechFormat, SpeechProvider } from "../../ports/speech-provider.js";
import { callOptions } from "../toolkit/egress-call.js";
import { sealWav, sniffAudio, wavDurationSeconds } from "./audio-format.js";
import { openAiFailure } from "./openai-failure.js";

/** The built-in voices CreateSpeechRequest documents; the first is the default here. */
export const OPENAI_VOICES = [
  "alloy",
  "ash",
  "ballad",
  "coral",
  "echo",
  "fable",
  "nova",
  "onyx",
  "sage",
  "shimmer",
  "verse",
  "marin",
  "cedar",
] as const;
/** CreateSpeechRequest's `input.maxLength`. */
export const OPENAI_SPEECH_MAX_CHARS = 4096;
/** Four thousand characters of MP3 is a few MB; of 24 kHz WAV, up to about 20 MB. */
const MAX_AUDIO_BYTES = 32 * 1024 * 1024;

const MEDIA_TYPES: Record<SpeechFormat, string> = { mp3: "audio/mpeg", wav: "audio/wav" };

export interface OpenAiSpeechSetup {
  baseUrl: string;
  egress: EgressClient;
  credentialRef: string;
  model: string;
}

export function createOpenAiSpeechProvider(setup: OpenAiSpeechSetup): SpeechProvider {
  const endpoint = `${setup.baseUrl.replace(/\/+$/, "")}/audio/speech`;
  const identity = { label: `OpenAI (${setup.model})`, credentialRef: setup.credentialRef };
  return {
    name: "openai",
    label: identity.label,
    voices: OPENAI_VOICES,
    formats: ["mp3", "wav"],
    maxChars: OPENAI_SPEECH_MAX_CHARS,
    async speak({ text, voice, format }, context) {
      const response = await setup.egress.request(endpoint, {
        method: "POST",
        headers: { accept: "application/octet-stream", "content-type": "application/json" },
        body: JSON.stringify({ model: setup.model, input: text, voice, response_format: format }),
        maxResponseBytes: MAX_AUDIO_BYTES,
        ...callOptions(context),
      });
      if (response.status >= 400) throw openAiFailure(identity, response);
      const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
      if (response.truncated) {
        throw new ToolFailure(
          "upstream_error",
          `${identity.label} sent more audio than this deployment keeps for one request (${response.bytesRead} bytes); send a shorter text`,
          { retryable: false, details },
        );
      }
      // A WAV arrives streamed, its RIFF and data sizes left as placeholders: sealed as espeak's is.
      const bytes = format === "wav" ? sealWav(new Uint8Array(response.body)) : new Uint8Array(response.body);
      // What came back must be the format asked for: a proxy's page or a JSON error with a 200 is not audio.
      if (sniffAudio(bytes)?.extension !== format) {
        throw new ToolFailure(
          "upstream_error",
          `${identity.label} answered ${response.status} with something other than ${format} audio (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
          { retryable: false, details },
        );
      }
      return {
        bytes,
        mediaType: MEDIA_TYPES[format],
        durationSeconds: format === "wav" ? wavDurationSeconds(bytes) : undefined,
      };
    },
  };
}
