/**
 * @module A real HTTP server on 127.0.0.1 for the scrape tests: a site to read and crawl, or a vendor's API.
 * It logs every request and answers through a handler, after an optional delay, counting requests in flight.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  /** The path with its query, as the request line had it. */
  target: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is (with the content type given in `headers`). */
  body?: unknown;
  /** Milliseconds to wait before answering. */
  delayMs?: number;
}

export interface LocalServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  /** The most requests that were in flight at once. */
  peakInFlight: number;
  close(): Promise<void>;
}

export async function startLocalServer(handle: (request: SeenRequest) => Reply): Promise<LocalServer> {
  let inFlight = 0;
  const state = { requests: [] as SeenRequest[], peakInFlight: 0 };
  const server = createServer((incoming, outgoing) => {
    inFlight++;
    state.peakInFlight = Math.max(state.peakInFlight, inFlight);
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const target = incoming.url ?? "/";
      const request: SeenRequest = {
        method: incoming.method ?? "",
        path: new URL(target, "http://local").pathname,
        target,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      state.requests.push(request);
      const reply = handle(request);
      const send = () => {
        inFlight--;
        if (outgoing.destroyed) return;
        const json = typeof reply.body !== "string" && reply.body !== undefined;
        outgoing.writeHead(reply.status, {
          ...(json ? { "content-type": "application/json" } : {}),
          ...reply.headers,
        });
        outgoing.end(json ? JSON.stringify(reply.body) : (reply.body as string | undefined));
      };
      if (reply.delayMs) setTimeout(send, reply.delayMs);
      else send();
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    get peakInFlight() {
      return state.peakInFlight;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
