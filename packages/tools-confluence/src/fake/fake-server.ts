/**
 * @module The HTTP server under the Confluence fake: toolreg/test's startVendorFake answers synchronously,
 * and this fake must ask an OAuth provider whether a Bearer token is live (RFC 7662 introspection) before
 * it answers, so it has its own small server: each request logged for assertions, then authenticated, then
 * answered by the rules or by a failure queued for the next request.
 */
import { once } from "node:events";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import type { FakeReply, SeenRequest } from "toolreg/test";

/** A request as seen, with its raw query: a repeated parameter (`keys=A&keys=B`) is more than one value. */
export interface FakeRequest extends SeenRequest {
  search: string;
}

export type AsyncRules = (request: FakeRequest) => Promise<FakeReply>;

export interface FakeServer {
  url: string;
  requests: FakeRequest[];
  /** The next request gets this answer, whatever it asks. */
  failNext(reply: FakeReply): void;
  close(): Promise<void>;
}

export async function startFakeServer(rules: AsyncRules): Promise<FakeServer> {
  const requests: FakeRequest[] = [];
  const queued: FakeReply[] = [];
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = [];
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
    incoming.on("end", async () => {
      const url = new URL(incoming.url ?? "/", "http://fake");
      const request: FakeRequest = {
        method: incoming.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        search: url.search,
      };
      requests.push(request);
      const reply = queued.shift() ?? (await rules(request));
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
    failNext: (reply) => queued.push(reply),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
