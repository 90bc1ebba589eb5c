/**
 * @module How far a PDF's streams inflate, proved before pdf.js parses it: a PDF bomb (a few hundred kilobytes
 * of FlateDecode data that unpacks to gigabytes) is refused once its streams pass a budget, inflated with the
 * output counted and thrown away, so the check never holds more than one chunk of it.
 *
 * Every `stream` keyword that follows a dictionary is a stream here, wherever it lies (also inside another
 * stream's data, where a lying xref can send pdf.js), object streams included. The dictionary's /Filter is not
 * trusted for FlateDecode: a body that starts with a zlib header (pdf.js inflates nothing else) is inflated.
 * A body runs to the later of its first `endstream` and its direct /Length, or to the end of the file when its
 * /Length is a reference, so it holds at least what pdf.js reads. A body named ASCIIHex or ASCII85 (alone or
 * before FlateDecode in an array) is decoded first. RunLengthDecode and LZWDecode are counted by walking their codes for the lengths
 * alone. An encrypted PDF's data cannot be read before it is decrypted, so each of its stream bodies counts at
 * deflate's greatest ratio. Filters after FlateDecode in an array (a RunLength or LZW of inflated data) are not
 * counted: no writer makes them.
 */
import { constants, createInflate } from "node:zlib";
import { ToolFailure } from "../errors/tool-failure.js";

export const PDF_LIMITS = {
  /** Every stream inflated together: a long report with its fonts and images, far from a bomb's gigabytes. */
  inflatedBytes: 64 * 1024 * 1024,
  /** Compressed bytes inflated, over the file's size: well-made streams do not overlap, so they come to 1. */
  inflatedInputRatio: 2,
  /** Each stream costs a little to measure: a long book's pages, fonts and images come to tens of thousands. */
  streams: 100_000,
} as const;

/** Deflate's greatest ratio (258 bytes from about 2 bits): what an encrypted stream may come to. */
const DEFLATE_RATIO = 1032;

const latin1 = new TextDecoder("latin1");

/**
 * Throws `invalid_input` when the PDF's streams would inflate past the budget, or are too many to measure;
 * resolves when they do not. The signal is honoured between streams.
 */
export async function checkPdfInflation(
  bytes: Uint8Array,
  signal?: AbortSignal,
  budget: number = PDF_LIMITS.inflatedBytes,
): Promise<void> {
  const text = latin1.decode(bytes);
  const encrypted = text.includes("/Encrypt");
  let total = 0;
  let input = 0;
  let streams = 0;
  let windowStart = 0;
  let endstream = 0;
  const count = (size: number) => {
    total += size;
    if (total > budget) throw tooLarge(budget);
  };
  for (const keyword of text.matchAll(/>>\s*stream(?:\r\n|\r|\n)/g)) {
    signal?.throwIfAborted();
    if (++streams > PDF_LIMITS.streams)
      throw refused(`it has more than ${PDF_LIMITS.streams} streams`, "too_many_streams", PDF_LIMITS.streams);
    const body = keyword.index + keyword[0].length;
    // The names since the previous stream: its dictionary's among them, however its strings try to hide them.
    const names = text.slice(windowStart, keyword.index);
    windowStart = body;
    // Found once for every stream before it, so a file with no `endstream` is not searched to its end again and again.
    if (endstream !== -1 && endstream < body) endstream = text.indexOf("endstream", body);
    const end = bodyEnd(text, body, names, endstream);
    if (encrypted) {
      total += (end - body) * DEFLATE_RATIO;
      if (total > budget)
        throw refused(
          `it is encrypted, so its streams cannot be measured before pdf.js decrypts them, and at deflate's greatest ratio they could inflate to more than ${sizeOf(budget)}, the most a document may unpack to`,
          "too_large_unpacked",
          budget,
        );
      continue;
    }
    const decoded = /\/(ASCIIHexDecode|AHx)\b/.test(names)
      ? hexDecoded(text.slice(body, end))
      : /\/(ASCII85Decode|A85)\b/.test(names)
        ? ascii85Decoded(text.slice(body, end), budget - total)
        : undefined;
    if (decoded) count(decoded.length);
    const data = decoded ?? bytes.subarray(body, end);
    // What was read of the file: bodies that overlap are read again, and past twice the file that is refused.
    let read = decoded ? end - body : 0;
    if (isZlibHeader(data)) {
      const inflated = await inflatedSize(data, budget - total);
      read += decoded ? 0 : inflated.input;
      count(inflated.output);
    } else if (/\/(RunLengthDecode|RL)\b/.test(names)) {
      read = end - body;
      count(runLengthSize(data));
    } else if (/\/(LZWDecode|LZW)\b/.test(names)) {
      read = end - body;
      count(lzwSize(data, budget - total + 1));
    }
    input += read;
    if (input > bytes.length * PDF_LIMITS.inflatedInputRatio)
      throw refused(
        "its compressed streams overlap one another, as no writer makes them",
        "overlapping_streams",
      );
  }
}

function isZlibHeader(data: Uint8Array): boolean {
  const [method, flags] = data;
  return (
    method !== undefined && flags !== undefined && (method & 0x0f) === 8 && ((method << 8) | flags) % 31 === 0
  );
}

/**
 * The bytes the data inflates to, counted chunk by chunk and never held, stopped past `limit`; damaged data
 * counts what came out before the damage, as pdf.js keeps it. `input` is how much compressed data was read.
 */
function inflatedSize(data: Uint8Array, limit: number): Promise<{ output: number; input: number }> {
  return new Promise((resolve) => {
    const inflater = createInflate({ finishFlush: constants.Z_SYNC_FLUSH });
    let output = 0;
    const done = () => resolve({ output, input: inflater.bytesWritten });
    inflater.on("data", (chunk: Buffer) => {
      output += chunk.length;
      if (output > limit) {
        inflater.destroy();
        done();
      }
    });
    inflater.on("error", done);
    inflater.on("end", done);
    inflater.end(data);
  });
}

/**
 * Where pdf.js may end a body: at the next `endstream`, or further where a direct /Length says; a /Length by
 * reference (not looked up here) may say anything, so the body then runs to the end of the file.
 */
function bodyEnd(text: string, body: number, names: string, endstream: number): number {
  const declared = [...names.matchAll(/\/Length\s+(\d+)(\s+\d+\s+R)?/g)].at(-1);
  if (declared?.[2]) return text.length;
  const next = endstream === -1 ? text.length : endstream;
  return Math.min(text.length, Math.max(next, body + Number(declared?.[1] ?? 0)));
}

function hexDecoded(body: string): Uint8Array {
  const end = body.indexOf(">");
  const digits = body.slice(0, end === -1 ? body.length : end).replace(/\s+/g, "");
  return Buffer.from(digits.length % 2 === 0 ? digits : `${digits}0`, "hex");
}

/** ASCII85 decoded up to `~>`, stopped past `limit` (a `z` stands for four zero bytes). */
function ascii85Decoded(body: string, limit: number): Uint8Array {
  const end = body.indexOf("~");
  const stop = end === -1 ? body.length : end;
  const out = new Uint8Array(Math.max(0, Math.min(limit + 5, stop * 4)));
  let length = 0;
  let group: number[] = [];
  const flush = (bytes: number) => {
    const value = [...group, 84, 84, 84, 84].slice(0, 5).reduce((sum, digit) => sum * 85 + digit, 0);
    for (let shift = 3; shift >= 4 - bytes; shift--) out[length++] = (value >>> (shift * 8)) & 0xff;
    group = [];
  };
  for (let at = 0; at < stop && length <= limit; at++) {
    const code = body.charCodeAt(at);
    if (code === 0x7a && group.length === 0) length += 4;
    else if (code >= 0x21 && code <= 0x75) {
      group.push(code - 0x21);
      if (group.length === 5) flush(4);
    }
  }
  if (group.length > 1 && length <= limit) flush(group.length - 1);
  return out.subarray(0, Math.min(length, out.length));
}

/** What RunLengthDecode makes of the data: a length byte copies up to 128 bytes or repeats one up to 128 times. */
function runLengthSize(data: Uint8Array): number {
  let size = 0;
  for (let at = 0; at < data.length; ) {
    const length = data[at] as number;
    if (length === 128) break;
    if (length < 128) {
      size += length + 1;
      at += length + 2;
    } else {
      size += 257 - length;
      at += 2;
    }
  }
  return size;
}

/**
 * What LZWDecode makes of the data, from each code's length alone (a new code is one longer than the code
 * before it), stopped past `limit`; codes of 9 to 12 bits, grown one code early as PDF's default says.
 */
function lzwSize(data: Uint8Array, limit: number): number {
  const lengths = new Uint16Array(4096).fill(1, 0, 256);
  let width = 9;
  let next = 258;
  let previous = -1;
  let size = 0;
  let bits = 0;
  let held = 0;
  for (let at = 0; at < data.length && size <= limit; ) {
    while (held < width && at < data.length) {
      bits = ((bits << 8) | (data[at++] as number)) & 0xffffff;
      held += 8;
    }
    if (held < width) break;
    held -= width;
    const code = (bits >>> held) & ((1 << width) - 1);
    if (code === 256) {
      width = 9;
      next = 258;
      previous = -1;
      continue;
    }
    if (code === 257) break;
    let length: number;
    if (code < 256) length = 1;
    else if (code < next) length = lengths[code] as number;
    else if (code === next && previous !== -1) length = (lengths[previous] as number) + 1;
    else break;
    size += length;
    if (previous !== -1 && next < 4096) lengths[next++] = (lengths[previous] as number) + 1;
    previous = code;
    if (next + 1 >= 1 << width && width < 12) width++;
  }
  return size;
}

function tooLarge(budget: number): ToolFailure {
  return refused(
    `its compressed streams inflate to more than ${sizeOf(budget)}, the most a document may unpack to`,
    "too_large_unpacked",
    budget,
  );
}

function refused(why: string, reason: string, limit?: number): ToolFailure {
  return new ToolFailure("invalid_input", `the PDF was refused before it was read: ${why}`, {
    details: { reason, ...(limit === undefined ? {} : { limit }) },
  });
}

const sizeOf = (bytes: number) =>
  bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes} bytes`;
