/**
 * @module `speech_generate` through a real seam against the OpenAI fake: the JSON request (checked against
 * OpenAI's CreateSpeechRequest by the fake), the audio kept as an artifact and readable, never inlined,
 * and refusals before any request.
 */
import { describe, expect, it } from "vitest";
import { createMemoryAttachmentStore } from "../../stores/memory/attachments.js";
import { createTestHarness } from "../../test/test-harness.js";
import { ALLOW_ALL, credentialsResolving } from "./fakes/audio-rig.js";
import { useAudioRig } from "./fakes/audio-test-setup.js";
import { OPENAI_TEST_KEY } from "./fakes/openai-audio-fake.js";

const rig = useAudioRig({
  attachments: createMemoryAttachmentStore(),
  harness: (tools) => createTestHarness(tools, { clock: Date.now, approvalPolicy: ALLOW_ALL }),
});

describe("speech_generate with OpenAI", () => {
  it("asks a human under the default policy (a write), and sends nothing", async () => {
    const { seam, context } = createTestHarness(rig.tools, { clock: Date.now });
    const before = rig.fake.requests.length;
    const parked = await seam.call(
      context({ credentials: credentialsResolving(OPENAI_TEST_KEY) }),
      "speech_generate",
      { text: "Needs approval." },
    );
    expect(parked).toMatchObject({ ok: false, error: { code: "approval_required" } });
    expect(rig.fake.requests.length).toBe(before);
  });

  it("sends model, input, voice and format as JSON with the injected key, and keeps the WAV as an artifact", async () => {
    const before = rig.fake.requests.length;
    const envelope = await rig.call("speech_generate", {
      text: "Hello there.",
      voice: "nova",
      format: "wav",
    });
    expect(envelope).toMatchObject({
      ok: true,
      data: {
        name: "speech.wav",
        mediaType: "audio/wav",
        durationSeconds: 0.5,
        voice: "nova",
        provider: "openai",
      },
    });
    const request = rig.fake.requests[before];
    expect(request).toMatchObject({ method: "POST", path: "/v1/audio/speech" });
    expect(request?.headers.authorization).toBe(`Bearer ${OPENAI_TEST_KEY}`);
    expect(request?.json).toEqual({
      model: "gpt-4o-mini-tts",
      input: "Hello there.",
      voice: "nova",
      response_format: "wav",
    });
    const data = envelope.ok
      ? (envelope.data as { artifactId: string; uri: string; size: number })
      : undefined;
    expect(data?.uri).toBe(`artifact://${data?.artifactId}/speech.wav`);
    // The audio is in the store, readable by its tenant only, and not in the envelope.
    const stored = await rig.artifacts.get({
      tenantId: "t1",
      id: data?.artifactId ?? "",
      name: "speech.wav",
    });
    expect(stored?.bytes.byteLength).toBe(data?.size);
    // The fake streams the WAV with 0xFFFFFFFF sizes; what is kept has the sizes of what is there.
    const view = Buffer.from(stored?.bytes ?? new Uint8Array());
    expect(view.readUInt32LE(4)).toBe(view.length - 8);
    expect(view.readUInt32LE(40)).toBe(view.length - 44);
    expect(
      await rig.artifacts.get({ tenantId: "t2", id: data?.artifactId ?? "", name: "speech.wav" }),
    ).toBeUndefined();
    expect(envelope.ok && envelope.content).toMatch(
      /^Saved 0\.5 s of speech \(audio\/wav, 23\.5 KiB, voice nova/,
    );
    expect(JSON.stringify(envelope).length).toBeLessThan(2_000);
  });

  it("speaks in the engine's default voice and format (mp3, no duration) when none is asked", async () => {
    const envelope = await rig.call("speech_generate", { text: "Default voice." });
    expect(envelope).toMatchObject({
      ok: true,
      data: { mediaType: "audio/mpeg", name: "speech.mp3", voice: "alloy" },
    });
    expect(envelope.ok && (envelope.data as { durationSeconds?: number }).durationSeconds).toBeUndefined();
  });

  it.each([
    [
      "an unknown voice, listing the voices",
      { text: "hi", voice: "hal9000" },
      /no voice "hal9000"; it has alloy, ash/,
    ],
    ["a voice that is no name", { text: "hi", voice: "../../etc" }, /voice/],
    ["an empty text", { text: "" }, /text/],
    ["a text of blanks", { text: " \n\t " }, /no words/],
    ["a text past 4,096 characters", { text: "a".repeat(4097) }, /text/],
    ["a format not offered", { text: "hi", format: "ogg" }, /format/],
  ])("refuses %s before any request", async (_, input, message) => {
    const before = rig.fake.requests.length;
    const refused = await rig.call("speech_generate", input);
    expect(refused).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringMatching(message) },
    });
    expect(rig.fake.requests.length).toBe(before);
  });

  it("reports a spent quota as not retryable and a rate limit as retryable with its wait, keeping nothing", async () => {
    rig.fake.next("quota");
    expect(await rig.call("speech_generate", { text: "Quota." })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", retryable: false, details: { limit: "quota" } },
    });
    rig.fake.next("rate-limited");
    expect(await rig.call("speech_generate", { text: "Rate." })).toMatchObject({
      ok: false,
      error: { code: "upstream_rate_limited", retryable: true, retryAfterMs: 20_000 },
    });
  });

  it("reports a rate limit without Retry-After as retryable, promising no wait it was not given", async () => {
    rig.fake.next("rate-limited-no-retry-after");
    const envelope = await rig.call("speech_generate", { text: "Rate." });
    expect(envelope).toMatchObject({
      ok: false,
      error: { code: "upstream_rate_limited", retryable: true, details: { limit: "rate" } },
    });
    if (envelope.ok) throw new Error("expected a failure");
    expect(envelope.error).not.toHaveProperty("retryAfterMs");
  });

  it("refuses an answer that is not the audio asked for (a proxy's page with a 200)", async () => {
    rig.fake.next("malformed");
    expect(await rig.call("speech_generate", { text: "Proxy." })).toMatchObject({
      ok: false,
      error: { code: "upstream_error", message: expect.stringContaining("something other than mp3 audio") },
    });
  });
});
