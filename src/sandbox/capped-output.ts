/** @module A byte-capped collector for one output stream: keeps the head, drains the rest, remembers the tail. */

const TAIL_BYTES = 4096;

/** Collects up to `limit` bytes and counts what it dropped; the stream is always drained, never paused. */
export class CappedOutput {
  readonly #limit: number;
  readonly #chunks: Buffer[] = [];
  #kept = 0;
  #tail: Buffer = Buffer.alloc(0);
  truncated = false;

  constructor(limit: number) {
    this.#limit = limit;
  }

  push(chunk: Buffer): void {
    const room = this.#limit - this.#kept;
    if (chunk.length <= room) {
      this.#chunks.push(chunk);
      this.#kept += chunk.length;
    } else {
      if (room > 0) this.#chunks.push(chunk.subarray(0, room));
      this.#kept = this.#limit;
      this.truncated = true;
    }
    // The last few kilobytes survive truncation: a dying process says why at the end.
    const joined = Buffer.concat([this.#tail, chunk]);
    this.#tail = joined.subarray(Math.max(0, joined.length - TAIL_BYTES));
  }

  /** The kept bytes as text, without a character cut in half at the cap. */
  text(): string {
    const text = Buffer.concat(this.#chunks).toString("utf8");
    return this.truncated ? text.replace(/\uFFFD$/, "") : text;
  }

  /** The last bytes seen, kept or not. */
  tail(): string {
    return this.#tail.toString("utf8");
  }
}
