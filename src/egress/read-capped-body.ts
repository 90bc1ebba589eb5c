/** @module Reads a response body up to a byte cap while it streams, and says whether it stopped early. */

export interface CappedBody {
  body: Buffer;
  /** Bytes kept: the whole body, or exactly the cap when `truncated`. */
  bytesRead: number;
  /** True when the body went on past the cap; the rest was never read. */
  truncated: boolean;
}

/** Stops at `cap` bytes: leaving the loop early destroys the stream, which closes the connection. */
export async function readCappedBody(stream: AsyncIterable<Uint8Array>, cap: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let bytesRead = 0;
  let truncated = false;
  for await (const chunk of stream) {
    const room = cap - bytesRead;
    if (chunk.byteLength > room) {
      chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, room));
      bytesRead += room;
      truncated = true;
      break;
    }
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
    bytesRead += chunk.byteLength;
  }
  return { body: Buffer.concat(chunks, bytesRead), bytesRead, truncated };
}
