/** @module Audio told by its first bytes, a WAV file's length, and a streamed WAV header sealed. */
import { describe, expect, it } from "vitest";
import { sealWav, sniffAudio, wavDurationSeconds } from "./audio-format.js";
import { silentWav } from "./fakes/openai-audio-fake.js";

const bytes = (...parts: (string | number[])[]) =>
  new Uint8Array(
    parts.flatMap((part) => (typeof part === "string" ? [...Buffer.from(part, "latin1")] : part)),
  );

describe("sniffAudio", () => {
  it.each([
    [bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "), "wav", "audio/wav"],
    [bytes("ID3", [4, 0, 0, 0, 0, 0, 0]), "mp3", "audio/mpeg"],
    [bytes([0xff, 0xfb, 0x90, 0x64]), "mp3", "audio/mpeg"],
    [bytes([0, 0, 0, 0x20], "ftypM4A "), "m4a", "audio/mp4"],
    [bytes("OggS", [0, 2]), "ogg", "audio/ogg"],
    [bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f]), "webm", "audio/webm"],
    [bytes("fLaC", [0, 0, 0, 0x22]), "flac", "audio/flac"],
  ])("reads %o as %s", (audio, extension, mediaType) => {
    expect(sniffAudio(audio)).toEqual({ extension, mediaType });
  });

  it.each([
    ["text", bytes("hello, this is not audio")],
    ["a PDF", bytes("%PDF-1.7")],
    ["nothing", new Uint8Array()],
    ["RIFF that is not WAVE (an AVI)", bytes("RIFF", [0, 0, 0, 0], "AVI LIST")],
    ["a sync word with the reserved layer", bytes([0xff, 0xf9, 0, 0])],
  ])("refuses %s", (_, audio) => {
    expect(sniffAudio(audio)).toBeUndefined();
  });
});

describe("wavDurationSeconds and sealWav", () => {
  it("reads the length from the header, and caps a streamed placeholder by the bytes there", () => {
    expect(wavDurationSeconds(silentWav(0.5))).toBe(0.5);
    const streamed = silentWav(0.25);
    streamed.writeUInt32LE(0x7ffff024, 4);
    streamed.writeUInt32LE(0x7ffff000, 40);
    expect(wavDurationSeconds(streamed)).toBe(0.25);
    const sealed = Buffer.from(sealWav(streamed));
    expect(sealed.readUInt32LE(4)).toBe(sealed.length - 8);
    expect(sealed.readUInt32LE(40)).toBe(sealed.length - 44);
    expect(wavDurationSeconds(bytes("RIFF", [0, 0, 0, 0], "WAVEdata", [4, 0, 0, 0]))).toBeUndefined();
    expect(wavDurationSeconds(bytes("OggS"))).toBeUndefined();
  });
});
