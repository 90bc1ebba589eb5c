/**
 * @module What audio a file holds, told by its first bytes and never by its name or declared type (both are
 * the uploader's word): the six container formats speech engines take, and a WAV file's length in seconds.
 */

export interface AudioFormat {
  /** The extension engines recognise it by: `wav`, `mp3`, `m4a`, `ogg`, `webm`, `flac`. */
  extension: string;
  mediaType: string;
}

const ascii = (bytes: Uint8Array, at: number, text: string) =>
  bytes.length >= at + text.length && [...text].every((char, i) => bytes[at + i] === char.charCodeAt(0));

/** The audio format `bytes` begin with, or undefined when they begin as none of the six. */
export function sniffAudio(bytes: Uint8Array): AudioFormat | undefined {
  if (ascii(bytes, 0, "RIFF") && ascii(bytes, 8, "WAVE")) return { extension: "wav", mediaType: "audio/wav" };
  if (ascii(bytes, 0, "fLaC")) return { extension: "flac", mediaType: "audio/flac" };
  if (ascii(bytes, 0, "OggS")) return { extension: "ogg", mediaType: "audio/ogg" };
  // EBML's magic number: WebM (and Matroska, which engines that take WebM also read).
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3)
    return { extension: "webm", mediaType: "audio/webm" };
  // An ISO base media file (MP4, M4A): a box size, then `ftyp`.
  if (ascii(bytes, 4, "ftyp")) return { extension: "m4a", mediaType: "audio/mp4" };
  // MP3: an ID3v2 tag, or an MPEG audio frame's sync word (11 bits set) with a valid layer.
  if (ascii(bytes, 0, "ID3")) return { extension: "mp3", mediaType: "audio/mpeg" };
  const [first, second] = [bytes[0] ?? 0, bytes[1] ?? 0];
  if (bytes.length >= 4 && first === 0xff && (second & 0xe0) === 0xe0 && (second & 0x06) !== 0)
    return { extension: "mp3", mediaType: "audio/mpeg" };
  return undefined;
}

const uint32 = (bytes: Uint8Array, at: number) =>
  new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, true);

/**
 * Seconds of sound in a WAV file: its `data` chunk over the byte rate its `fmt ` chunk states. A length
 * written as a placeholder (a stream's header says 2 GiB) is capped by the bytes actually there.
 * Undefined when the chunks are not where a WAV file keeps them.
 */
export function wavDurationSeconds(bytes: Uint8Array): number | undefined {
  if (!ascii(bytes, 0, "RIFF") || !ascii(bytes, 8, "WAVE")) return undefined;
  let byteRate: number | undefined;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const size = uint32(bytes, at + 4);
    if (ascii(bytes, at, "fmt ") && at + 16 <= bytes.length) byteRate = uint32(bytes, at + 16);
    if (ascii(bytes, at, "data")) {
      if (!byteRate) return undefined;
      const length = Math.min(size, bytes.length - at - 8);
      return Math.round((length / byteRate) * 1000) / 1000;
    }
    at += 8 + size + (size % 2);
  }
  return undefined;
}

/**
 * The same WAV bytes with the RIFF and `data` lengths set to what is there: a writer to a pipe cannot seek
 * back, so it leaves placeholders some players refuse. Other bytes are returned as they are.
 */
export function sealWav(bytes: Uint8Array): Uint8Array {
  if (!ascii(bytes, 0, "RIFF") || !ascii(bytes, 8, "WAVE")) return bytes;
  const sealed = new Uint8Array(bytes);
  const view = new DataView(sealed.buffer);
  view.setUint32(4, sealed.length - 8, true);
  let at = 12;
  while (at + 8 <= sealed.length) {
    const size = view.getUint32(at + 4, true);
    if (ascii(sealed, at, "data")) {
      view.setUint32(at + 4, sealed.length - at - 8, true);
      break;
    }
    at += 8 + size + (size % 2);
  }
  return sealed;
}
