/** @module `stringifyBounded`: JSON text of a value, stopping at a byte cap, with no recursion. */

export interface BoundedJson {
  /** The JSON text, or its first `maxBytes` bytes when `complete` is false. */
  text: string;
  complete: boolean;
}

type Frame =
  | { kind: "array"; items: readonly unknown[]; next: number }
  | { kind: "object"; record: Record<string, unknown>; keys: string[]; next: number; wrote: boolean };

/**
 * Serializes like `JSON.stringify(value)` but gives up once the text passes `maxBytes`. A query result can
 * share one sub-value many times over (`[@,@] | [@,@] | …`), so its text can be exponentially larger than
 * its memory; stopping at the cap keeps the cost proportional to the cap, and the explicit stack keeps any
 * nesting depth off the call stack.
 */
export function stringifyBounded(value: unknown, maxBytes: number): BoundedJson {
  const parts: string[] = [];
  let bytes = 0;
  const stack: Frame[] = [];
  const emit = (text: string): boolean => {
    parts.push(text);
    bytes += Buffer.byteLength(text);
    return bytes <= maxBytes;
  };
  /** Writes a scalar, or opens a container; false once the cap is passed. */
  const open = (item: unknown): boolean => {
    if (Array.isArray(item)) {
      stack.push({ kind: "array", items: item, next: 0 });
      return emit("[");
    }
    if (item !== null && typeof item === "object") {
      const record = item as Record<string, unknown>;
      stack.push({ kind: "object", record, keys: Object.keys(record), next: 0, wrote: false });
      return emit("{");
    }
    return emit(scalar(item));
  };

  let within = open(value);
  while (within && stack.length > 0) {
    const frame = stack[stack.length - 1] as Frame;
    if (frame.kind === "array") {
      if (frame.next >= frame.items.length) {
        stack.pop();
        within = emit("]");
        continue;
      }
      if (frame.next > 0 && !emit(",")) break;
      const item = frame.items[frame.next++];
      within = open(item);
      continue;
    }
    const key = frame.keys[frame.next++];
    if (key === undefined) {
      stack.pop();
      within = emit("}");
      continue;
    }
    const item = frame.record[key];
    // JSON.stringify drops undefined and function members; so do we.
    if (item === undefined || typeof item === "function" || typeof item === "symbol") continue;
    if (frame.wrote && !emit(",")) break;
    frame.wrote = true;
    within = emit(`${JSON.stringify(key)}:`) && open(item);
  }

  const text = parts.join("");
  if (within && bytes <= maxBytes) return { text, complete: true };
  return { text: cutToBytes(text, maxBytes), complete: false };
}

/** A scalar's JSON; like JSON.stringify in an array, anything that is not JSON becomes null. */
function scalar(value: unknown): string {
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "null";
  if (typeof value === "boolean") return value ? "true" : "false";
  return "null";
}

/** The first `maxBytes` bytes of UTF-8 text, never ending in half a character. */
export function cutToBytes(text: string, maxBytes: number): string {
  if (text.length * 3 <= maxBytes) return text;
  const bytes = Buffer.from(text);
  if (bytes.length <= maxBytes) return text;
  return new TextDecoder().decode(bytes.subarray(0, maxBytes)).replace(/\uFFFD$/, "");
}
