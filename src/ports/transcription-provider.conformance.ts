/**
 * @module The one conformance suite every TranscriptionProvider adapter runs: it names where audio goes and
 * how much it takes, transcribes a WAV recording into text, and fails instead of sending when the call
 * was aborted.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import type { ToolContext } from "../seam/context.js";
import type { TranscriptionProvider } from "./transcription-provider.js";

export interface TranscriptionProviderFixture {
  provider: TranscriptionProvider;
  /** A WAV recording the engine can transcribe. */
  recording: Uint8Array;
  /** What the engine hears in `recording`: the transcript must say it. */
  expectedText: string;
  context(signal?: AbortSignal): ToolContext;
  cleanup(): Promise<void>;
}

/** Registers the suite for one adapter; `factory` gives it ready to transcribe. */
export function runTranscriptionProviderConformance(
  name: string,
  factory: () => Promise<TranscriptionProviderFixture>,
): void {
  describe(`${name} transcription provider conformance`, () => {
    let fixture: TranscriptionProviderFixture;
    beforeAll(async () => {
      fixture = await factory();
    });
    afterAll(() => fixture?.cleanup());

    it("names its endpoint and the most audio it takes", () => {
      expect(fixture.provider.endpoint).not.toBe("");
      expect(fixture.provider.maxBytes).toBeGreaterThan(fixture.recording.byteLength);
    });

    it("transcribes a WAV recording into text", async () => {
      const transcript = await fixture.provider.transcribe(
        { bytes: fixture.recording, mediaType: "audio/wav", fileName: "audio.wav", language: "en" },
        fixture.context(),
      );
      expect(transcript.text.trim()).toBe(fixture.expectedText);
      for (const segment of transcript.segments ?? [])
        expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    });

    it("fails with a ToolFailure when the call was aborted", async () => {
      const controller = new AbortController();
      controller.abort();
      const transcribing = fixture.provider.transcribe(
        { bytes: fixture.recording, mediaType: "audio/wav", fileName: "audio.wav" },
        fixture.context(controller.signal),
      );
      await expect(transcribing).rejects.toSatisfy((error) => ToolFailure.isInstance(error));
    });
  });
}
