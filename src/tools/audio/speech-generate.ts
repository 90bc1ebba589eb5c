/**
 * @module `speech_generate`: text spoken aloud, kept as an audio artifact (never inlined: a minute of audio
 * is a megabyte a model cannot use). The text is the model's and may go to a third-party engine, so the
 * deployment's policy decides which runs.
 */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { SPEECH_FORMATS } from "../../ports/speech-provider.js";
import { audioTool, sizeOf } from "./audio-env.js";

/** The most any adapter takes in one request (OpenAI's input limit); an adapter may take less. */
const MAX_TEXT_CHARS = 4096;

const input = z.object({
  text: z
    .string()
    .min(1)
    .max(MAX_TEXT_CHARS)
    .describe(`the words to speak, at most ${MAX_TEXT_CHARS} characters`),
  voice: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, "a voice name as the tool's description lists them")
    .optional()
    .describe("the voice; the engine's default when omitted (the refusal of an unknown one lists them)"),
  format: z.enum(SPEECH_FORMATS).optional().describe("the audio format; the engine's default when omitted"),
});

const output = z.object({
  artifactId: z.string(),
  uri: z.string(),
  name: z.string(),
  mediaType: z.string(),
  size: z.number(),
  durationSeconds: z.number().optional(),
  voice: z.string(),
  provider: z.string(),
});

export const speechGenerateSpec = audioTool({
  name: "speech_generate",
  description:
    "Speaks a text aloud and keeps the recording as an audio artifact (wav or mp3): returns its artifact:// address, media type, size and length in seconds when known, never the audio itself. Use it when the person asks for audio; pick a voice or leave the engine's default.",
  category: "media",
  effect: "internal-write",
  approval: "policy",
  overrideReason:
    "the text is chosen by the model and may be sent to a third-party speech engine that bills per character, so the deployment's policy decides which texts are spoken",
  cost: "io",
  // Above espeak-ng's own 30 s default, so its timeout (naming what to do) reports first.
  limits: { timeoutMs: 60_000 },
  input,
  output,
  available: (env) => env.speech !== undefined && env.artifacts !== undefined,
  async run({ text, voice, format }, context, { speech, artifacts }) {
    if (!speech || !artifacts) throw new ToolFailure("precondition_failed", "no speech engine is configured");
    if (text.trim() === "") throw new ToolFailure("invalid_input", "text has no words to speak");
    if (text.length > speech.maxChars) {
      throw new ToolFailure(
        "invalid_input",
        `${speech.label} speaks at most ${speech.maxChars} characters at once and this text has ${text.length}; split it`,
      );
    }
    const chosenVoice = voice ?? speech.voices[0] ?? "";
    if (!speech.voices.includes(chosenVoice)) {
      throw new ToolFailure(
        "invalid_input",
        `${speech.label} has no voice "${chosenVoice}"; it has ${speech.voices.join(", ")}`,
        { details: { reason: "unknown_voice", voices: [...speech.voices] } },
      );
    }
    const chosenFormat = format ?? speech.formats[0] ?? "wav";
    if (!speech.formats.includes(chosenFormat)) {
      throw new ToolFailure(
        "invalid_input",
        `${speech.label} writes ${speech.formats.join(", ")} only, not ${chosenFormat}`,
      );
    }
    const audio = await speech.speak({ text, voice: chosenVoice, format: chosenFormat }, context);
    // The bytes speak the caller's own text, so the artifact is first-party, as file_generate's files are.
    const artifact = await artifacts.put({
      tenantId: context.tenantId,
      name: `speech.${chosenFormat}`,
      mediaType: audio.mediaType,
      bytes: audio.bytes,
    });
    const length = audio.durationSeconds === undefined ? "" : `${audio.durationSeconds.toFixed(1)} s of `;
    return {
      content: `Saved ${length}speech (${artifact.mediaType}, ${sizeOf(artifact.size)}, voice ${chosenVoice}, ${speech.label}) as ${artifact.uri}`,
      data: {
        artifactId: artifact.id,
        uri: artifact.uri,
        name: artifact.name,
        mediaType: artifact.mediaType,
        size: artifact.size,
        ...(audio.durationSeconds === undefined ? {} : { durationSeconds: audio.durationSeconds }),
        voice: chosenVoice,
        provider: speech.name,
      },
    };
  },
});
