/**
 * The import's HTTP transport through the egress client resumes a stream the server closed before its
 * answer (SEP-1699, the conformance client scenario `sse-retry`): it waits the server's `retry:` time,
 * then asks again with GET and `Last-Event-ID`, and the answer sent there completes the call.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestHarness } from "../../test/test-harness.js";
import { mcpServer } from "./mcp-server.js";

const RETRY_MS = 300;
let http: Server;
let url: string;
let pendingCallId: unknown;
let streamClosedAt = 0;
const gets: { lastEventId: string | undefined; at: number }[] = [];

const json = (response: ServerResponse, body: unknown) => {
  response.writeHead(200, { "content-type": "application/json", "mcp-session-id": "s1" });
  response.end(JSON.stringify(body));
};

/** A hand-written server doing what the suite's does: prime, close, answer on the resumed GET. */
async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  if (request.method === "GET" && request.headers["last-event-id"] === undefined) {
    // No standing stream here, as the suite's server has none to offer either until a call's is resumed.
    response.writeHead(405).end();
    return;
  }
  if (request.method === "GET") {
    const lastEventId = request.headers["last-event-id"];
    gets.push({ lastEventId: typeof lastEventId === "string" ? lastEventId : undefined, at: Date.now() });
    response.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s1" });
    const result = { content: [{ type: "text", text: "resumed" }] };
    response.end(
      `event: message\nid: e2\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: pendingCallId, result })}\n\n`,
    );
    return;
  }
  let body = "";
  for await (const chunk of request) body += chunk;
  const message = JSON.parse(body) as { id?: unknown; method: string };
  if (message.id === undefined) {
    response.writeHead(202).end();
  } else if (message.method === "initialize") {
    const result = {
      protocolVersion: "2025-11-25",
      serverInfo: { name: "retry", version: "1" },
      capabilities: { tools: {} },
    };
    json(response, { jsonrpc: "2.0", id: message.id, result });
  } else if (message.method === "tools/list") {
    const tool = { name: "slow", inputSchema: { type: "object" }, annotations: { readOnlyHint: true } };
    json(response, { jsonrpc: "2.0", id: message.id, result: { tools: [tool] } });
  } else if (message.method === "tools/call") {
    pendingCallId = message.id;
    response.writeHead(200, { "content-type": "text/event-stream", "mcp-session-id": "s1" });
    response.write(`id: e1\nretry: ${RETRY_MS}\ndata: \n\n`);
    setTimeout(() => {
      streamClosedAt = Date.now();
      response.end();
    }, 50);
  } else {
    json(response, { jsonrpc: "2.0", id: message.id, result: {} });
  }
}

beforeAll(async () => {
  http = createServer((request, response) => {
    answer(request, response).catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

describe("the import's HTTP transport through egress", () => {
  it("resumes a closed stream with Last-Event-ID after the server's retry time, and the call completes", async () => {
    const imported = await mcpServer({
      name: "retry",
      transport: { kind: "http", url, egress: { allowAddressClasses: ["public", "loopback"] } },
    });
    try {
      const { seam, context } = createTestHarness(imported.tools());
      const envelope = await seam.call(context(), "retry_slow", {});
      expect(envelope.ok && envelope.content).toContain("resumed");
      expect(gets.map((get) => get.lastEventId)).toEqual(["e1"]);
      const waited = (gets[0]?.at ?? 0) - streamClosedAt;
      expect(waited).toBeGreaterThanOrEqual(RETRY_MS - 50);
      expect(waited).toBeLessThan(RETRY_MS * 2);
    } finally {
      await imported.close();
    }
  });
});
