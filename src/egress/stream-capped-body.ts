/**
 * @module A response body handed on as it arrives, for a reader that acts before it ends (an MCP server's
 * event stream), still bounded: past the cap the stream fails rather than growing without end.
 */
import { ToolFailure } from "../errors/tool-failure.js";

/**
 * `body` as a web stream that errors once more than `cap` bytes have come; `translate` turns what the
 * wire threw into the failure a caller can act on, as a whole read's would be.
 */
export function streamCappedBody(
  body: AsyncIterable<Uint8Array> & { destroy(error?: Error): unknown },
  cap: number,
  url: string,
  translate: (error: unknown) => Error,
): ReadableStream<Uint8Array> {
  const chunks = body[Symbol.asyncIterator]();
  let bytesRead = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await chunks.next();
        if (next.done) {
          controller.close();
          return;
        }
        bytesRead += next.value.byteLength;
        if (bytesRead > cap) {
          body.destroy();
          controller.error(
            new ToolFailure(
              "upstream_error",
              `the stream from ${url} went past the ${cap}-byte response cap`,
            ),
          );
          return;
        }
        controller.enqueue(new Uint8Array(next.value));
      } catch (error) {
        controller.error(translate(error));
      }
    },
    cancel() {
      body.destroy();
    },
  });
}
