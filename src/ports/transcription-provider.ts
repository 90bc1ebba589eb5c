/**
 * @module The transcription port: audio in, text out. `transcribe` talks to this interface only; an adapter
 * (OpenAI's, a self-hosted Whisper's) sends the bytes to its engine and turns its answer and failures into
 * the shapes here. The transcript is whatever the audio said, so the tool returns it as untrusted text.
 */
import type { ToolContext } from "../seam/context.js";

/** One stretch of the transcript with where it falls in the audio, when the engine gives timings. */
export interface TranscriptSegment {
  /** Seconds from the start of the audio. */
  start: number;
  end: number;
  text: string;
}

export interface TranscriptionRequest {
  /** The audio file as it is stored; its format was checked by its first bytes. */
  bytes: Uint8Array;
  /** The media type those bytes were recognised as, e.g. `audio/wav`. */
  mediaType: string;
  /** A file name with the extension of that type (`audio.wav`): some engines read the format from it. */
  fileName: string;
  /** An ISO-639-1 hint (`en`, `de`); the engine detects the language when omitted. */
  language?: string | undefined;
}

export interface Transcript {
  text: string;
  /** The language the engine says it heard, when it says. */
  language?: string | undefined;
  /** Seconds of audio, when the engine reports it. */
  durationSeconds?: number | undefined;
  segments?: readonly TranscriptSegment[] | undefined;
}

export interface TranscriptionProvider {
  /** The adapter's name in configuration, e.g. `openai`. */
  readonly name: string;
  /** The engine's name as a person knows it, for messages: "OpenAI (whisper-1)". */
  readonly label: string;
  /** Where the audio goes: named as the source of the untrusted transcript. */
  readonly endpoint: string;
  /** The largest audio file the engine accepts, in bytes. */
  readonly maxBytes: number;
  /**
   * Transcribes one file. Aborted by `context.signal`; throws a ToolFailure: `invalid_input` for audio the
   * engine refuses, `upstream_rate_limited` for a rate limit a wait lifts, `upstream_error` otherwise (a spent
   * quota included: not retryable).
   */
  transcribe(request: TranscriptionRequest, context: ToolContext): Promise<Transcript>;
}
