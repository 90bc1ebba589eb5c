/**
 * @module A repository file as text a model can read: binary files are recognised and never dumped, and
 * a long file is read in windows of whole lines, so a model can ask for the next window by line number.
 */

/** UTF-8 bytes of file text one call returns: twice over (the text and the data, JSON-escaped), it fits the 64 KiB output cap. */
export const FILE_WINDOW_BYTES = 20_000;

/** Git's own test for binary content: a NUL byte in the first 8,000 bytes. */
const SNIFF_BYTES = 8_000;

export type FileText = { binary: true } | { binary: false; text: string };

/** The file's bytes as text, or binary when they are not UTF-8 text (a NUL, or an invalid sequence). */
export function textOfBytes(bytes: Uint8Array): FileText {
  if (bytes.subarray(0, SNIFF_BYTES).includes(0)) return { binary: true };
  try {
    return { binary: false, text: new TextDecoder("utf-8", { fatal: true }).decode(bytes) };
  } catch {
    return { binary: true };
  }
}

/**
 * A raw download as Octokit hands it over: bytes, or text it already decoded as UTF-8 (GitHub labels raw
 * files `charset=utf-8`, binary ones too), where a NUL or a replacement character betrays a binary file.
 */
export function textOfRaw(data: unknown): FileText {
  if (data instanceof ArrayBuffer) return textOfBytes(new Uint8Array(data));
  if (ArrayBuffer.isView(data))
    return textOfBytes(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  const text = String(data ?? "");
  return text.includes("\u0000") || text.includes("\uFFFD") ? { binary: true } : { binary: false, text };
}

export interface LineWindow {
  content: string;
  startLine: number;
  /** The last line included, whole or cut. */
  endLine: number;
  totalLines: number;
  /** More of the file follows (or a line was cut): ask again from `nextStartLine`. */
  truncated: boolean;
  nextStartLine: number | null;
}

/**
 * Whole lines from `startLine` (1-based) while they fit `maxBytes` of UTF-8. A single line longer than
 * that is cut, and the window says so; the next window starts at the line after it.
 */
export function lineWindow(text: string, startLine: number, maxBytes = FILE_WINDOW_BYTES): LineWindow {
  const lines = text.split(/(?<=\n)/);
  const totalLines = lines.length;
  const first = startLine - 1;
  const taken: string[] = [];
  let bytes = 0;
  let index = first;
  for (; index < lines.length; index += 1) {
    const line = lines[index] as string;
    const size = Buffer.byteLength(line);
    if (bytes + size > maxBytes) break;
    taken.push(line);
    bytes += size;
  }
  if (taken.length === 0 && index < lines.length) {
    // One line longer than the whole window: its head, cut on a character boundary.
    const head = new TextDecoder()
      .decode(Buffer.from(lines[index] as string).subarray(0, maxBytes))
      .replace(/\uFFFD$/, "");
    return {
      content: head,
      startLine,
      endLine: startLine,
      totalLines,
      truncated: true,
      nextStartLine: startLine < totalLines ? startLine + 1 : null,
    };
  }
  const endLine = first + taken.length;
  const more = endLine < totalLines;
  return {
    content: taken.join(""),
    startLine,
    endLine,
    totalLines,
    truncated: more,
    nextStartLine: more ? endLine + 1 : null,
  };
}
