/**
 * @module The audio toolkit: `transcribe` and `speech_generate` behind the TranscriptionProvider and
 * SpeechProvider ports, with OpenAI adapters and a local espeak-ng one. A deployment loads `audioToolkit`
 * and names its engines in the config.
 */
export type {
  SpeechAudio,
  SpeechFormat,
  SpeechProvider,
  SpeechRequest,
} from "../../ports/speech-provider.js";
export type {
  Transcript,
  TranscriptionProvider,
  TranscriptionRequest,
  TranscriptSegment,
} from "../../ports/transcription-provider.js";
export { type AudioConfig, AudioConfigSchema } from "./audio-config.js";
export type { AudioEnv } from "./audio-env.js";
export { createEspeakSpeechProvider, ESPEAK_VOICES } from "./espeak-speech.js";
export { createOpenAiSpeechProvider, OPENAI_VOICES } from "./openai-speech.js";
export { createOpenAiTranscriptionProvider } from "./openai-transcription.js";
export { audioToolkit } from "./toolkit.js";
