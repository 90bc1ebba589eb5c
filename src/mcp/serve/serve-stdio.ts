/** @module An MCP server on stdio for as long as its input lasts, answering everything it read first. */
import type { Readable, Writable } from "node:stream";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  CancelledNotificationSchema,
  type JSONRPCMessage,
  type RequestId,
} from "@modelcontextprotocol/sdk/types.js";

/**
 * Resolves once the input has ended (or `stop` resolved: the process is stopping, and no more is read)
 * and every request read before then has been answered (or cancelled), then closes the server. The SDK's
 * stdio transport never notices the end of its input, and closing on it at once would drop the answers
 * to calls still running: a client may send its last request and close its end of the pipe straight away.
 */
export async function serveStdio(
  server: Server,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
  stop?: Promise<unknown>,
): Promise<void> {
  let ended = false;
  let finish = () => {};
  const finished = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const transport = new AnswerTrackingTransport(new StdioServerTransport(input, output), () => {
    if (ended && transport.unanswered.size === 0) finish();
  });
  const end = () => {
    ended = true;
    transport.onSettled();
  };
  input.once("end", end);
  stop?.then(() => {
    input.pause();
    end();
  });
  await server.connect(transport);
  await finished;
  await server.close();
}

/**
 * The stdio transport, counting the requests it has not answered yet. A wrapper rather than a patch of
 * the inner transport's handlers, because the server installs its handler on `connect` and input may
 * already be flowing by the time `connect` resolves.
 */
class AnswerTrackingTransport implements Transport {
  readonly unanswered = new Set<RequestId>();
  onmessage?: Transport["onmessage"];
  onclose?: Transport["onclose"];
  onerror?: Transport["onerror"];

  constructor(
    private readonly inner: StdioServerTransport,
    readonly onSettled: () => void,
  ) {
    inner.onmessage = (message) => {
      this.#received(message);
      this.onmessage?.(message);
    };
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error);
  }

  start(): Promise<void> {
    return this.inner.start();
  }

  close(): Promise<void> {
    return this.inner.close();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    await this.inner.send(message);
    // Plain property checks: the SDK's guards are zod parses, some µs a message.
    if ("id" in message && ("result" in message || "error" in message)) {
      if (message.id !== undefined) this.unanswered.delete(message.id);
      this.onSettled();
    }
  }

  #received(message: JSONRPCMessage): void {
    if ("method" in message && "id" in message) this.unanswered.add(message.id);
    // A cancelled request gets no answer at all.
    if (!("method" in message) || message.method !== "notifications/cancelled") return;
    const cancelled = CancelledNotificationSchema.safeParse(message);
    if (cancelled.success && cancelled.data.params.requestId !== undefined) {
      this.unanswered.delete(cancelled.data.params.requestId);
      this.onSettled();
    }
  }
}
