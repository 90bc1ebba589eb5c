/**
 * @module Serves a registry server on a port, with the timeouts that keep a slow client from holding a
 * socket, and a graceful stop: no new calls, running ones finish (or are recorded as they end), then the
 * stores close — nothing half-written.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { RegistryServer } from "./registry-server.js";

export const DEFAULT_PORT = 7423;

export interface Listening {
  url: string;
  port: number;
  /** Stops accepting, waits up to `drainMs` for running calls, ends open streams, closes the stores. */
  stop(drainMs?: number): Promise<{ drained: boolean }>;
}

export function listen(
  server: RegistryServer,
  options: { port?: number; host?: string } = {},
): Promise<Listening> {
  const hostname = options.host ?? "127.0.0.1";
  return new Promise((resolve, reject) => {
    const http = serve(
      {
        fetch: server.app.fetch,
        port: options.port ?? DEFAULT_PORT,
        hostname,
        serverOptions: {
          // Headers must arrive within 10 s and a whole request within 30 s: a slow-loris client is cut off.
          headersTimeout: 10_000,
          requestTimeout: 30_000,
          keepAliveTimeout: 5_000,
        },
      },
      (info: AddressInfo) => {
        const host = info.family === "IPv6" ? `[${info.address}]` : info.address;
        let stopping: Promise<{ drained: boolean }> | undefined;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          stop(drainMs = 30_000) {
            stopping ??= (async () => {
              const closed = new Promise<void>((done) => http.close(() => done()));
              const drained = await server.deps.inflight.drain(drainMs);
              // Event streams never end by themselves: end them, let the last responses go out, then
              // cut whatever connection is still open.
              server.deps.hub.close();
              const late = setTimeout(() => {
                if ("closeAllConnections" in http) http.closeAllConnections();
              }, 2_000);
              await closed;
              clearTimeout(late);
              server.close();
              return { drained };
            })();
            return stopping;
          },
        });
      },
    );
    http.once("error", reject);
  });
}
