/**
 * @module The HTTP server under a vendor's fake, for a toolkit's tests: a real server on 127.0.0.1 that logs
 * each request for assertions and answers it through the vendor's rules, or with a failure queued for the
 * next request (`next`) in that vendor's own shape.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface SeenRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface FakeReply {
  status: number;
  headers?: Record<string, string>;
  /** An object is sent as JSON; a string as it is. */
  body?: unknown;
  /** Answer this long after the request arrived: a slow vendor. */
  delayMs?: number;
}

export type VendorRules<S extends string> = (request: SeenRequest, scenario: S | undefined) => FakeReply;

export interface VendorFake<S extends string> {
  url: string;
  requests: SeenRequest[];
  next(scenario: S): void;
  close(): Promise<void>;
}

export async function startVendorFake<S extends string>(rules: VendorRules<S>): Promise<VendorFake<S>> {
  const requests: SeenRequest[] = [];
  const queued: S[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", () => {
      const url = new URL(incoming.url ?? "/", "http://fake");
      const request: SeenRequest = {
        method: incoming.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      const reply = rules(request, queued.shift());
      const json = typeof reply.body !== "string" && reply.body !== undefined;
      const send = () => {
        outgoing.writeHead(reply.status, {
          ...(json ? { "content-type": "application/json" } : {}),
          ...reply.headers,
        });
        outgoing.end(json ? JSON.stringify(reply.body) : (reply.body as string | undefined));
      };
      if (reply.delayMs === undefined) send();
      else setTimeout(send, reply.delayMs);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    next: (scenario) => queued.push(scenario),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** What a proxy or a captive portal answers in place of an API: a 200 that is not JSON. */
export const HTML_PAGE: FakeReply = {
  status: 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: "<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
};
