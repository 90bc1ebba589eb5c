/**
 * @module The local speech adapter: Debian's espeak-ng run as a process, no key and no network. The text
 * goes in on stdin, never in argv (where it could be read as an option, and where `ps` shows it); the voice
 * is one of a fixed list; the WAV it writes to stdout is capped, and the process is killed when the call is
 * aborted, runs past its time or writes past the cap.
 */
import { spawn } from "node:child_process";
import { ToolFailure } from "../../errors/tool-failure.js";
import type { SpeechProvider } from "../../ports/speech-provider.js";
import type { ToolContext } from "../../seam/context.js";
import { sealWav, sniffAudio, wavDurationSeconds } from "./audio-format.js";

/** Voices espeak-ng 1.51 ships (`espeak-ng --voices`), the common languages; the first is the default. */
export const ESPEAK_VOICES = [
  "en-us",
  "en-gb",
  "de",
  "fr-fr",
  "es",
  "es-419",
  "it",
  "pt",
  "pt-br",
  "nl",
  "sv",
  "da",
  "nb",
  "fi",
  "pl",
  "cs",
  "ru",
  "uk",
  "el",
  "tr",
  "ar",
  "hi",
  "cmn",
  "ja",
  "ko",
] as const;
export const ESPEAK_MAX_CHARS = 4096;
export const ESPEAK_DEFAULT_TIMEOUT_MS = 30_000;
/** About 20 minutes of espeak-ng's 22 kHz 16-bit mono: far more than 4,096 characters take to say. */
const MAX_OUTPUT_BYTES = 48 * 1024 * 1024;
const STDERR_CHARS = 300;

export interface EspeakSetup {
  /** The program; `espeak-ng` on the PATH unless a test names another. */
  command?: string;
  timeoutMs?: number;
  maxOutputBytes?: number;
}

/** Runs espeak-ng once: resolves with its stdout, or throws the ToolFailure why it did not finish. */
function runEspeak(
  command: string,
  voice: string,
  text: string,
  limits: { timeoutMs: number; maxOutputBytes: number },
  context: ToolContext,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // No shell: the arguments are ours alone, and the text is on stdin.
    const child = spawn(command, ["--stdin", "--stdout", "-b", "1", "-v", voice], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin" },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let stopped: ToolFailure | undefined;
    const stop = (failure: ToolFailure) => {
      stopped ??= failure;
      child.kill("SIGKILL");
    };
    const timer = setTimeout(
      () =>
        stop(
          new ToolFailure(
            "timeout",
            `espeak-ng ran for more than ${limits.timeoutMs} ms and was stopped; send a shorter text`,
          ),
        ),
      limits.timeoutMs,
    );
    const onAbort = () =>
      stop(new ToolFailure("timeout", "the call was cancelled while espeak-ng was speaking"));
    if (context.signal?.aborted) onAbort();
    context.signal?.addEventListener("abort", onAbort, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxOutputBytes) {
        stop(
          new ToolFailure(
            "upstream_error",
            `espeak-ng wrote more than ${limits.maxOutputBytes} bytes of audio; send a shorter text`,
            { retryable: false },
          ),
        );
        return;
      }
      chunks.push(chunk);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      if (stderr.length < STDERR_CHARS) stderr += chunk.toString("utf8");
    });
    // A process that exits before reading all of stdin makes the write fail; its exit status tells why.
    child.stdin.on("error", () => {});
    child.on("error", (error: NodeJS.ErrnoException) => {
      stop(
        new ToolFailure(
          "precondition_failed",
          error.code === "ENOENT"
            ? `espeak-ng is not installed on this host (${command}); the operator can install Debian's espeak-ng package or configure another speech provider`
            : `espeak-ng could not be started: ${error.message}`,
          { details: { reason: "espeak_unavailable" } },
        ),
      );
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      context.signal?.removeEventListener("abort", onAbort);
      if (stopped) return reject(stopped);
      if (code !== 0) {
        const said = stderr.replace(/\s+/g, " ").trim().slice(0, STDERR_CHARS);
        return reject(
          new ToolFailure("upstream_error", `espeak-ng failed (exit ${code})${said ? `: ${said}` : ""}`, {
            retryable: false,
          }),
        );
      }
      resolve(Buffer.concat(chunks));
    });
    child.stdin.end(text, "utf8");
  });
}

export function createEspeakSpeechProvider(setup: EspeakSetup = {}): SpeechProvider {
  const command = setup.command ?? "espeak-ng";
  const limits = {
    timeoutMs: setup.timeoutMs ?? ESPEAK_DEFAULT_TIMEOUT_MS,
    maxOutputBytes: setup.maxOutputBytes ?? MAX_OUTPUT_BYTES,
  };
  return {
    name: "espeak",
    label: "espeak-ng",
    voices: ESPEAK_VOICES,
    formats: ["wav"],
    maxChars: ESPEAK_MAX_CHARS,
    async speak({ text, voice, format }, context) {
      // The tool checks these against the lists above; an adapter holds its own line all the same.
      if (!(ESPEAK_VOICES as readonly string[]).includes(voice) || format !== "wav")
        throw new ToolFailure("invalid_input", `espeak-ng speaks ${ESPEAK_VOICES.join(", ")} in wav only`);
      const output = await runEspeak(command, voice, text, limits, context);
      if (sniffAudio(output)?.extension !== "wav") {
        throw new ToolFailure("upstream_error", "espeak-ng finished without writing WAV audio", {
          retryable: false,
        });
      }
      const bytes = sealWav(output);
      return { bytes, mediaType: "audio/wav", durationSeconds: wavDurationSeconds(bytes) };
    },
  };
}
