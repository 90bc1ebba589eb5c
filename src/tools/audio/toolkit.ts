/**
 * @module The audio toolkit: `transcribe` behind a TranscriptionProvider and `speech_generate` behind a
 * SpeechProvider, each chosen by the deployment's configuration (OpenAI, or espeak-ng on the host for
 * speech with no key). OpenAI is reached through egress, its host only, with the key injected there.
 * A tool whose engine is not configured, or whose store the host lacks, does not exist.
 */
import type { SpeechProvider } from "../../ports/speech-provider.js";
import type { TranscriptionProvider } from "../../ports/transcription-provider.js";
import type { CredentialPlacement } from "../toolkit/auth-model.js";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import type { ToolkitHost } from "../toolkit/toolkit-host.js";
import { type AudioConfig, AudioConfigSchema, OPENAI_BASE_URL } from "./audio-config.js";
import type { AudioEnv } from "./audio-env.js";
import { createEspeakSpeechProvider } from "./espeak-speech.js";
import { createOpenAiSpeechProvider } from "./openai-speech.js";
import { createOpenAiTranscriptionProvider } from "./openai-transcription.js";
import { speechGenerateSpec } from "./speech-generate.js";
import { transcribeSpec } from "./transcribe.js";

/** Where egress puts OpenAI's key on each request. */
const OPENAI_PLACEMENT: CredentialPlacement = { header: "authorization", scheme: "Bearer" };

function openAiEgress(host: ToolkitHost, baseUrl: string, credentialRef: string) {
  return host.egress({
    hosts: [new URL(baseUrl).hostname],
    credential: { ...OPENAI_PLACEMENT, credentialRef },
  });
}

function transcriptionProvider(config: AudioConfig, host: ToolkitHost): TranscriptionProvider | undefined {
  const wanted = config.transcription;
  if (!wanted) return undefined;
  const baseUrl = wanted.baseUrl ?? OPENAI_BASE_URL;
  return createOpenAiTranscriptionProvider({
    baseUrl,
    egress: openAiEgress(host, baseUrl, wanted.credentialRef),
    credentialRef: wanted.credentialRef,
    model: wanted.model ?? "whisper-1",
  });
}

function speechProvider(config: AudioConfig, host: ToolkitHost): SpeechProvider | undefined {
  const wanted = config.speech;
  if (!wanted) return undefined;
  if (wanted.provider === "espeak") return createEspeakSpeechProvider({ timeoutMs: wanted.timeoutMs });
  const baseUrl = wanted.baseUrl ?? OPENAI_BASE_URL;
  return createOpenAiSpeechProvider({
    baseUrl,
    egress: openAiEgress(host, baseUrl, wanted.credentialRef),
    credentialRef: wanted.credentialRef,
    model: wanted.model ?? "gpt-4o-mini-tts",
  });
}

export const audioToolkit = defineToolkit<AudioConfig, AudioEnv>({
  id: "audio",
  version: "0.1.0",
  package: "toolreg",
  description:
    "Speech to text and text to speech: transcribes attached or generated recordings with OpenAI, and speaks text into an audio artifact with OpenAI or the local espeak-ng.",
  config: AudioConfigSchema,
  auth: { kind: "api-key", ...OPENAI_PLACEMENT },
  hosts: [new URL(OPENAI_BASE_URL).hostname],
  tools: [transcribeSpec, speechGenerateSpec],
  reviewedOverrides: [{ tool: "speech_generate", field: "approval" }],
  bind(config, host): AudioEnv | undefined {
    const transcription = transcriptionProvider(config, host);
    const speech = speechProvider(config, host);
    if (!transcription && !speech) return undefined;
    return { transcription, speech, attachments: host.attachments, artifacts: host.artifacts };
  },
});
