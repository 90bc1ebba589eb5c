/** @module `cutAtLine`: whole lines up to a byte budget, so a cut text ends where a line ends. */

/** Joins `lines` with newlines up to `maxBytes`; a first line longer than the budget is itself cut. */
export function cutAtLine(
  lines: readonly string[],
  maxBytes: number,
): { text: string; lineCount: number; partial: boolean } {
  let bytes = 0;
  let count = 0;
  for (const line of lines) {
    const cost = Buffer.byteLength(line) + (count > 0 ? 1 : 0);
    if (bytes + cost > maxBytes) break;
    bytes += cost;
    count++;
  }
  if (count === 0 && lines.length > 0) {
    return { text: cutToBytes(lines[0] as string, maxBytes), lineCount: 1, partial: true };
  }
  return { text: lines.slice(0, count).join("\n"), lineCount: count, partial: false };
}

/** The first `maxBytes` bytes of UTF-8 text, never ending in half a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, "");
}
