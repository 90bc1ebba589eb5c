/**
 * @module The three adapters through their ports' conformance suites: OpenAI's transcription and speech
 * against the fake, through a real egress client that injects the key, and espeak-ng as a process (skipped
 * where it is not installed, never in CI).
 */
import { runSpeechProviderConformance } from "../../ports/speech-provider.conformance.js";
import { runTranscriptionProviderConformance } from "../../ports/transcription-provider.conformance.js";
import { createToolkitHost } from "../toolkit/toolkit-host.js";
import { createEspeakSpeechProvider } from "./espeak-speech.js";
import { credentialsResolving } from "./fakes/audio-rig.js";
import { espeakInstalled, runContext } from "./fakes/audio-test-setup.js";
import {
  OPENAI_CREDENTIAL_REF,
  OPENAI_TEST_KEY,
  silentWav,
  startOpenAiAudioFake,
} from "./fakes/openai-audio-fake.js";
import { createOpenAiSpeechProvider } from "./openai-speech.js";
import { createOpenAiTranscriptionProvider } from "./openai-transcription.js";

const context = (signal?: AbortSignal) =>
  runContext(signal, { credentials: credentialsResolving(OPENAI_TEST_KEY) });

/** OpenAI's adapter over the fake, with egress injecting the key as a deployment's does. */
async function openAi() {
  const fake = await startOpenAiAudioFake();
  const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
  const egress = host.egress({
    hosts: ["127.0.0.1"],
    credential: { header: "authorization", scheme: "Bearer", credentialRef: OPENAI_CREDENTIAL_REF },
  });
  const setup = { baseUrl: fake.url, egress, credentialRef: OPENAI_CREDENTIAL_REF };
  return {
    fake,
    setup,
    async cleanup() {
      await host.close();
      await fake.close();
      if (fake.problems.length > 0) throw new Error(fake.problems.join("; "));
    },
  };
}

runTranscriptionProviderConformance("openai", async () => {
  const { fake, setup, cleanup } = await openAi();
  const recording = silentWav(0.2);
  const expectedText = "The quick brown fox jumps over the lazy dog.";
  fake.hears(recording, expectedText);
  return {
    provider: createOpenAiTranscriptionProvider({ ...setup, model: "whisper-1" }),
    recording,
    expectedText,
    context,
    cleanup,
  };
});

runSpeechProviderConformance("openai", async () => {
  const { setup, cleanup } = await openAi();
  return { provider: createOpenAiSpeechProvider({ ...setup, model: "tts-1" }), context, cleanup };
});

const espeak = espeakInstalled();
runSpeechProviderConformance(
  "espeak-ng",
  async () => ({ provider: createEspeakSpeechProvider(), context, cleanup: async () => {} }),
  { skip: !espeak },
);
