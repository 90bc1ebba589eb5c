/**
 * @module The one conformance suite every SpeechProvider adapter runs (OpenAI's against its fake, espeak-ng
 * as a process): what it declares fits what `speech_generate` accepts, each format it offers comes back as
 * that format's media type, and an aborted call fails instead of speaking on.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import type { ToolContext } from "../seam/context.js";
import { SPEECH_FORMATS, type SpeechFormat, type SpeechProvider } from "./speech-provider.js";

export interface SpeechProviderFixture {
  provider: SpeechProvider;
  /** A context its calls run in (with the credentials its engine needs), cancelled by `signal`. */
  context(signal?: AbortSignal): ToolContext;
  cleanup(): Promise<void>;
}

/** What `speech_generate`'s input accepts as a voice name: an adapter's voices must all pass it. */
const VOICE_NAME = /^[a-z0-9][a-z0-9-]{0,39}$/;
const MEDIA_TYPES: Record<SpeechFormat, string> = { wav: "audio/wav", mp3: "audio/mpeg" };

/** Registers the suite for one adapter; `factory` gives it ready to speak. */
export function runSpeechProviderConformance(
  name: string,
  factory: () => Promise<SpeechProviderFixture>,
  options: { skip?: boolean } = {},
): void {
  describe.skipIf(options.skip === true)(`${name} speech provider conformance`, () => {
    let fixture: SpeechProviderFixture;
    beforeAll(async () => {
      fixture = await factory();
    });
    afterAll(() => fixture?.cleanup());

    it("declares voices, formats and a length speech_generate can ask for", () => {
      const { voices, formats, maxChars } = fixture.provider;
      expect(voices.length).toBeGreaterThan(0);
      expect(new Set(voices).size).toBe(voices.length);
      for (const voice of voices) expect(voice).toMatch(VOICE_NAME);
      expect(formats.length).toBeGreaterThan(0);
      for (const format of formats) expect(SPEECH_FORMATS).toContain(format);
      expect(maxChars).toBeGreaterThan(0);
      expect(maxChars).toBeLessThanOrEqual(4096);
    });

    it("speaks each format it offers, as that format's media type", async () => {
      const { provider } = fixture;
      for (const format of provider.formats) {
        const audio = await provider.speak(
          { text: "Conformance.", voice: provider.voices[0] ?? "", format },
          fixture.context(),
        );
        expect(audio.bytes.byteLength).toBeGreaterThan(0);
        expect(audio.mediaType).toBe(MEDIA_TYPES[format]);
        if (audio.durationSeconds !== undefined) expect(audio.durationSeconds).toBeGreaterThan(0);
      }
    });

    it("fails with a ToolFailure when the call was aborted", async () => {
      const { provider } = fixture;
      const controller = new AbortController();
      controller.abort();
      const speaking = provider.speak(
        { text: "Never.", voice: provider.voices[0] ?? "", format: provider.formats[0] ?? "wav" },
        fixture.context(controller.signal),
      );
      await expect(speaking).rejects.toSatisfy((error) => ToolFailure.isInstance(error));
    });
  });
}
