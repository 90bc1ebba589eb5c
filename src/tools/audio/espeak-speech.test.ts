/**
 * @module The espeak-ng adapter as a real process: WAV out with its length, text that looks like options
 * spoken rather than obeyed, and a process killed on abort, on timeout and past the output cap. Skipped
 * where espeak-ng is not installed, never in CI.
 */
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sniffAudio } from "./audio-format.js";
import { createEspeakSpeechProvider } from "./espeak-speech.js";
import { espeakInstalled, runContext } from "./fakes/audio-test-setup.js";

const installed = espeakInstalled();
if (!installed) console.warn("espeak-ng is not installed: skipping its tests (apt-get install espeak-ng)");

const scratch = mkdtempSync(join(tmpdir(), "toolreg-espeak-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const context = (signal?: AbortSignal) => runContext(signal);

/** A stand-in program that outlives any test unless killed, for the timeout and abort paths. */
function sleeper(): string {
  const path = join(scratch, "sleeper.sh");
  writeFileSync(path, "#!/bin/sh\nexec sleep 30\n");
  chmodSync(path, 0o755);
  return path;
}

describe.skipIf(!installed)("espeak-ng speech", () => {
  it("speaks text into sealed WAV with its length", async () => {
    const audio = await createEspeakSpeechProvider().speak(
      { text: "Hello from the speech test.", voice: "en-us", format: "wav" },
      context(),
    );
    expect(sniffAudio(audio.bytes)?.extension).toBe("wav");
    expect(audio.durationSeconds).toBeGreaterThan(0.5);
    expect(audio.durationSeconds).toBeLessThan(10);
    const view = Buffer.from(audio.bytes);
    expect(view.readUInt32LE(4)).toBe(view.length - 8);
  });

  it("speaks text that looks like options instead of obeying it (the text is on stdin, not argv)", async () => {
    const target = join(scratch, "written.wav");
    const audio = await createEspeakSpeechProvider().speak(
      { text: `-w ${target} --voices`, voice: "en-us", format: "wav" },
      context(),
    );
    expect(sniffAudio(audio.bytes)?.extension).toBe("wav");
    expect(existsSync(target)).toBe(false);
  });

  it("refuses a voice off its list and any format but wav", async () => {
    const provider = createEspeakSpeechProvider();
    await expect(
      provider.speak({ text: "hi", voice: "en-us --path=/tmp", format: "wav" }, context()),
    ).rejects.toMatchObject({
      envelopeCode: "invalid_input",
    });
    await expect(
      provider.speak({ text: "hi", voice: "en-us", format: "mp3" }, context()),
    ).rejects.toMatchObject({
      envelopeCode: "invalid_input",
    });
  });

  it("kills a process past its output cap", async () => {
    const provider = createEspeakSpeechProvider({ maxOutputBytes: 2_000 });
    await expect(
      provider.speak(
        {
          text: "A sentence long enough to pass two thousand bytes of audio.",
          voice: "en-us",
          format: "wav",
        },
        context(),
      ),
    ).rejects.toMatchObject({
      envelopeCode: "upstream_error",
      message: expect.stringContaining("more than 2000 bytes"),
    });
  });
});

describe("espeak-ng process control (no espeak-ng needed)", () => {
  it("kills the process when the call is aborted, and promptly", async () => {
    const controller = new AbortController();
    const started = Date.now();
    const speaking = createEspeakSpeechProvider({ command: sleeper() }).speak(
      { text: "never said", voice: "en-us", format: "wav" },
      context(controller.signal),
    );
    setTimeout(() => controller.abort(), 50);
    await expect(speaking).rejects.toMatchObject({
      envelopeCode: "timeout",
      message: expect.stringContaining("cancelled"),
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("kills the process past its time", async () => {
    const speaking = createEspeakSpeechProvider({ command: sleeper(), timeoutMs: 100 }).speak(
      { text: "never said", voice: "en-us", format: "wav" },
      context(),
    );
    await expect(speaking).rejects.toMatchObject({
      envelopeCode: "timeout",
      message: expect.stringContaining("100 ms"),
    });
  });

  it("says espeak-ng is missing, naming the package", async () => {
    const speaking = createEspeakSpeechProvider({ command: join(scratch, "no-such-espeak") }).speak(
      { text: "hi", voice: "en-us", format: "wav" },
      context(),
    );
    await expect(speaking).rejects.toMatchObject({
      envelopeCode: "precondition_failed",
      message: expect.stringContaining("espeak-ng package"),
    });
  });
});
