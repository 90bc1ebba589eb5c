/**
 * @module Benchmark target: the baseline, a bare node:http server answering every request with the given
 * bytes and headers (the registry server's manifest response, captured by the benchmark). Runs in its own
 * process, like the registry server; see spawn-target.ts.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { runTarget } from "./run-target.js";

export interface BareOptions {
  body: string;
  headers: Record<string, string>;
}

export interface BareReady {
  url: string;
}

runTarget<BareOptions, BareReady>(async ({ body, headers }) => {
  const bytes = Buffer.from(body);
  const server = createServer((_request, response) => {
    response.writeHead(200, headers);
    response.end(bytes);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    ready: { url: `http://127.0.0.1:${port}` },
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
});
