/**
 * @module Speech and back: speech_generate with the local espeak-ng keeps a WAV artifact, and transcribe
 * sends exactly those bytes to the OpenAI fake and returns what it heard, fenced. Skipped where espeak-ng
 * is not installed, never in CI.
 */
import { describe, expect, it } from "vitest";
import { createMemoryAttachmentStore } from "../../stores/memory/attachments.js";
import { createTestHarness } from "../../test/test-harness.js";
import { ALLOW_ALL } from "./fakes/audio-rig.js";
import { espeakInstalled, useAudioRig } from "./fakes/audio-test-setup.js";

const installed = espeakInstalled();

describe.skipIf(!installed)("speech_generate (espeak-ng) then transcribe (OpenAI fake)", () => {
  const rig = useAudioRig({
    config: { speech: { provider: "espeak" } },
    attachments: createMemoryAttachmentStore(),
    harness: (tools) => createTestHarness(tools, { clock: Date.now, approvalPolicy: ALLOW_ALL }),
  });

  it("transcribes the artifact speech_generate kept, byte for byte", async () => {
    const spoken = await rig.call("speech_generate", {
      text: "The meeting moved to Thursday.",
      voice: "en-gb",
    });
    expect(spoken).toMatchObject({
      ok: true,
      data: { mediaType: "audio/wav", voice: "en-gb", provider: "espeak" },
    });
    const { artifactId, uri, durationSeconds } = (spoken.ok ? spoken.data : {}) as {
      artifactId: string;
      uri: string;
      durationSeconds: number;
    };
    expect(durationSeconds).toBeGreaterThan(0.5);
    // espeak-ng made it locally: nothing reached OpenAI.
    expect(rig.fake.requests).toHaveLength(0);
    const stored = await rig.artifacts.get({ tenantId: "t1", id: artifactId, name: "speech.wav" });
    expect(stored).toBeDefined();
    rig.fake.hears(stored?.bytes ?? new Uint8Array(), "The meeting moved to Thursday.");

    const heard = await rig.call("transcribe", { audio: uri, language: "en" });
    expect(heard).toMatchObject({
      ok: true,
      provenance: { trusted: false },
      data: { text: "The meeting moved to Thursday.", audio: { source: uri, mediaType: "audio/wav" } },
    });
    const sent = rig.fake.requests[0]?.form?.file;
    expect(sent?.name).toBe("audio.wav");
    expect(Buffer.compare(sent?.bytes ?? Buffer.alloc(0), Buffer.from(stored?.bytes ?? []))).toBe(0);
  });
});
