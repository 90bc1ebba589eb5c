/**
 * @module Serves a registry server on a port, with the timeouts that keep a slow client from holding a
 * socket, and a graceful stop: no new calls; running ones finish within the drain, and those that change
 * data and are still running past it are recorded as interrupted (their outcome unknown, never re-run
 * unasked); then the stores close — nothing half-written, nothing left in flight for ever.
 */
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { RegistryServer } from "./registry-server.js";
import { DEFAULT_DRAIN_MS, DEFAULT_PORT } from "./server-defaults.js";

export interface StopReport {
  /** Every call ended within the drain. */
  drained: boolean;
  /** Calls that change data recorded as interrupted because they still ran past the drain. */
  interrupted: number;
}

export interface Listening {
  url: string;
  port: number;
  /**
   * Stops accepting, waits up to `drainMs` (or until `force` aborts) for running calls, records what
   * still runs as interrupted, ends open streams, closes the stores.
   */
  stop(drainMs?: number, force?: AbortSignal): Promise<StopReport>;
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
        let stopping: Promise<StopReport> | undefined;
        resolve({
          url: `http://${host}:${info.port}`,
          port: info.port,
          stop(drainMs = DEFAULT_DRAIN_MS, force) {
            stopping ??= (async () => {
              const closed = new Promise<void>((done) => http.close(() => done()));
              // The requests in flight and the calls that change data (an approved run, a call whose
              // client hung up) share one deadline; what the seam still runs at it is recorded interrupted.
              const [requestsDrained, calls] = await Promise.all([
                server.deps.inflight.drain(drainMs, force),
                server.seam.stop(drainMs, force),
              ]);
              // Event streams never end by themselves: end them, let the last responses go out, then
              // cut whatever connection is still open.
              server.deps.hub.close();
              const late = setTimeout(() => {
                if ("closeAllConnections" in http) http.closeAllConnections();
              }, 2_000);
              await closed;
              clearTimeout(late);
              await server.seam.close();
              await server.close();
              return { drained: requestsDrained && calls.drained, interrupted: calls.interrupted };
            })();
            return stopping;
          },
        });
      },
    );
    http.once("error", reject);
  });
}
