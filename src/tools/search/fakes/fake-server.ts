/**
 * @module The HTTP server under every search provider's fake: a real server on 127.0.0.1 that logs each
 * request for assertions and answers it through the vendor's rules, or with a failure queued for the next
 * request in that vendor's own shape (`next`).
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
  /** An object is sent as JSON; a string as it is (with the content type given in `headers`). */
  body?: unknown;
}

/**
 * Failures every vendor has, each answered in that vendor's shape. A fake may add its own (Tavily's 433,
 * SearXNG's engines all failing) and refuses a scenario its vendor has no form of.
 */
export type CommonScenario = "rate-limited" | "quota" | "server-error" | "not-json" | "wrong-shape";

/** How a vendor answers: a queued scenario if there is one, else its normal rules. */
export type VendorRules<S extends string> = (request: SeenRequest, scenario: S | undefined) => FakeReply;

export interface SearchFake<S extends string = CommonScenario> {
  /** The API root to configure the toolkit with. */
  url: string;
  requests: SeenRequest[];
  /** The next request is answered with this scenario, once. */
  next(scenario: S): void;
  close(): Promise<void>;
}

export async function startSearchFake<S extends string>(rules: VendorRules<S>): Promise<SearchFake<S>> {
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
      outgoing.writeHead(reply.status, {
        ...(json ? { "content-type": "application/json" } : {}),
        ...reply.headers,
      });
      outgoing.end(json ? JSON.stringify(reply.body) : (reply.body as string | undefined));
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

/** A request's JSON body, or undefined when it has none or it is not JSON. */
export function jsonOf(request: SeenRequest): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(request.body);
    return typeof value === "object" && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The page a proxy or a captive portal answers in place of an API: a 200 that is not JSON. */
export const HTML_PAGE: FakeReply = {
  status: 200,
  headers: { "content-type": "text/html; charset=utf-8" },
  body: "<!doctype html><html><head><title>Just a moment...</title></head><body>Checking your browser</body></html>",
};
