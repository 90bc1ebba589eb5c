/**
 * @module The speech port: text in, audio out. `speech_generate` talks to this interface only; an adapter
 * (OpenAI's text-to-speech, a local espeak-ng) checks the voice and format against what it offers, makes
 * the audio and turns its engine's failures into ToolFailures.
 */
import type { ToolContext } from "../seam/context.js";

/** The audio formats a speech adapter may offer: each one an artifact store can name and read back. */
export const SPEECH_FORMATS = ["wav", "mp3"] as const;
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

export interface SpeechRequest {
  text: string;
  /** One of the adapter's `voices`. */
  voice: string;
  /** One of the adapter's `formats`. */
  format: SpeechFormat;
}

export interface SpeechAudio {
  bytes: Uint8Array;
  /** E.g. `audio/wav`. */
  mediaType: string;
  /** Seconds of audio, when the adapter can tell (a WAV header says; an MP3 stream does not cheaply). */
  durationSeconds?: number | undefined;
}

export interface SpeechProvider {
  /** The adapter's name in configuration: `openai`, `espeak`. */
  readonly name: string;
  /** The engine's name as a person knows it, for messages. */
  readonly label: string;
  /** The voices it speaks with; the first is the default. */
  readonly voices: readonly string[];
  /** The formats it writes; the first is the default. */
  readonly formats: readonly SpeechFormat[];
  /** The longest text one request may carry, in characters. */
  readonly maxChars: number;
  /**
   * Speaks `request.text`. Aborted by `context.signal`; throws a ToolFailure: `invalid_input` for a voice
   * or format it does not offer, `upstream_rate_limited` for a rate limit a wait lifts, `upstream_error`
   * for an engine that failed or a spent quota (not retryable).
   */
  speak(request: SpeechRequest, context: ToolContext): Promise<SpeechAudio>;
}
