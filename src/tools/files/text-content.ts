/** @module Telling text from binary, and decoding UTF-8 strictly: the file tools return text only. */
import type { FileHandle } from "node:fs/promises";

/** How much of a file's start is searched for a NUL byte, the mark of a binary file. */
const SNIFF_BYTES = 8_192;

/**
 * The bytes as UTF-8 text, or `undefined` for binary: a NUL near the start, or bytes that are not UTF-8.
 * `complete` is false when the bytes are a prefix of the file, so a character cut at the end is allowed.
 */
export function decodeText(bytes: Uint8Array, complete: boolean): string | undefined {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: !complete });
  } catch {
    return undefined;
  }
}

/** Reads at most `maxBytes` from the start of an open file. */
export async function readPrefix(
  handle: FileHandle,
  maxBytes: number,
): Promise<{ bytes: Buffer; complete: boolean }> {
  // One byte more than the cap tells "exactly the cap" from "more than the cap".
  const buffer = Buffer.alloc(maxBytes + 1);
  let filled = 0;
  while (filled < buffer.length) {
    const { bytesRead } = await handle.read(buffer, filled, buffer.length - filled, filled);
    if (bytesRead === 0) break;
    filled += bytesRead;
  }
  return { bytes: buffer.subarray(0, Math.min(filled, maxBytes)), complete: filled <= maxBytes };
}
