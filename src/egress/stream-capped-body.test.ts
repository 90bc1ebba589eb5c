/**
 * A streamed egress response (`streamed: true`): its first bytes are read while the server still holds
 * the rest back, and a body that goes past the cap fails the stream rather than growing.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../errors/tool-failure.js";
import { createEgressClient } from "./egress-client.js";

let http: Server;
let origin: string;
/** The response the server holds open, to be ended by the test once it has read the first bytes. */
let held: ServerResponse | undefined;

beforeAll(async () => {
  http = createServer((request, response) => {
    response.writeHead(200, { "content-type": "text/event-stream" });
    if (request.url === "/held") {
      response.write("data: first\n\n");
      held = response;
    } else {
      response.end("x".repeat(4_096));
    }
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
});

afterAll(async () => {
  http.closeAllConnections();
  await new Promise((resolve) => http.close(resolve));
});

const egress = () =>
  createEgressClient({ policy: { allowAddressClasses: ["loopback"], maxResponseBytes: 1_024 } });

describe("a streamed egress response", () => {
  it("hands on the first bytes before the server ends the body", async () => {
    const client = egress();
    try {
      const response = await client.request(`${origin}/held`, { streamed: true });
      expect(response.body.byteLength).toBe(0);
      const reader = (response.stream as ReadableStream<Uint8Array>).getReader();
      const first = await reader.read();
      expect(new TextDecoder().decode(first.value)).toBe("data: first\n\n");
      held?.end("data: last\n\n");
      const rest = await reader.read();
      expect(new TextDecoder().decode(rest.value)).toBe("data: last\n\n");
      expect((await reader.read()).done).toBe(true);
    } finally {
      await client.close();
    }
  });

  it("fails past the response cap", async () => {
    const client = egress();
    try {
      const response = await client.request(`${origin}/long`, { streamed: true });
      const reading = new Response(response.stream).text();
      await expect(reading).rejects.toBeInstanceOf(ToolFailure);
      await expect(reading).rejects.toThrow(/went past the 1024-byte response cap/);
    } finally {
      await client.close();
    }
  });
});
