/**
 * @module The proxy every request of a session's Chromium goes through: plain HTTP forwarded, CONNECT (HTTPS,
 * WebSockets) tunnelled, each target first checked by toolreg's egress policy and then connected to the one
 * address the check pinned, so Chromium never resolves a name or opens a connection of its own choosing.
 */
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type OutgoingHttpHeaders,
} from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { type Duplex, Transform } from "node:stream";
import { type EgressClient, ToolFailure } from "toolreg/toolkit";

/** One request the policy refused, as the model is told about it. */
export interface RefusedRequest {
  /** The URL, or `https://host:port` for a tunnel (HTTPS and WebSockets show no path to a proxy). */
  url: string;
  /** The egress rule that fired (`loopback`, `private`, `host_not_allowed`, `port` …). */
  rule: string;
  message: string;
}

/** A request the proxy could not make for another reason than the policy (a name that does not resolve). */
export interface FailedRequest {
  url: string;
  message: string;
  retryable: boolean;
}

export interface EgressProxyOptions {
  egress: EgressClient;
  /** Ports a page may reach; any when omitted. */
  ports?: readonly number[] | undefined;
  /** Called for every refusal, in order. */
  onRefused(refusal: RefusedRequest): void;
  /** Called for a target that could not be checked or reached for another reason than the policy. */
  onFailed?(failure: FailedRequest): void;
  /** Bytes carried in both directions, bodies and tunnels, after which the proxy stops and says so. */
  maxTrafficBytes?: number;
  /** Called once when the traffic passes `maxTrafficBytes`; the proxy has closed every connection. */
  onOverBudget?(bytes: number): void;
  /** A tunnel with no byte either way for this long is closed. */
  tunnelIdleMs?: number;
  /** Tunnels open at once; another CONNECT is answered 503 until one closes. */
  maxTunnels?: number;
  connectTimeoutMs?: number;
}

export interface EgressProxy {
  /** `http://127.0.0.1:<port>`, for Chromium's `--proxy-server`. */
  url: string;
  /** Bytes carried so far, both directions. */
  readonly trafficBytes: number;
  close(): Promise<void>;
}

/** Marks the proxy's own refusal answer, so a navigation that ended on one is reported as refused. */
export const REFUSED_HEADER = "x-toolreg-egress-refused";
/** Marks the proxy's answer for a target it could not check or reach (a name that does not resolve). */
export const FAILED_HEADER = "x-toolreg-load-failed";

// Hop-by-hop headers (RFC 9110 §7.6.1) and the proxy's own: never forwarded upstream.
const HOP_HEADERS = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Starts a proxy on 127.0.0.1 on a free port. */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const sockets = new Set<Duplex>();
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const tunnelIdleMs = options.tunnelIdleMs ?? 120_000;
  const maxTunnels = options.maxTunnels ?? 64;
  let tunnels = 0;
  let traffic = 0;
  let overBudget = false;
  const destroyAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  /** A pass-through that counts every byte against the session's traffic budget. */
  const counted = () =>
    new Transform({
      transform(chunk: Buffer, _encoding, done) {
        traffic += chunk.length;
        if (options.maxTrafficBytes !== undefined && traffic > options.maxTrafficBytes) {
          if (!overBudget) {
            overBudget = true;
            destroyAll();
            options.onOverBudget?.(traffic);
          }
          done();
          return;
        }
        done(null, chunk);
      },
    });

  /** The checked address to connect to, or undefined after recording why not. */
  const check = async (url: URL, shown: string) => {
    const port = Number(url.port || (url.protocol === "http:" ? 80 : 443));
    try {
      const target = await options.egress.checkTarget(url);
      if (options.ports && !options.ports.includes(port)) {
        options.onRefused({
          url: shown,
          rule: "port",
          message: `port ${port} is not one the browser may reach (${options.ports.join(", ")})`,
        });
        return undefined;
      }
      return { address: target.address, port };
    } catch (error) {
      // Only the policy's refusal is a refusal; a name that does not resolve is a failed load.
      if (!(error instanceof ToolFailure && error.code === "egress_refused")) {
        options.onFailed?.({
          url: shown,
          message: error instanceof Error ? error.message : String(error),
          retryable: error instanceof ToolFailure ? error.retryable === true : true,
        });
        return "failed" as const;
      }
      const details = (error as { details?: { rule?: unknown } }).details;
      options.onRefused({
        url: shown,
        rule: typeof details?.rule === "string" ? details.rule : "unresolved",
        message: error instanceof Error ? error.message : String(error),
      });
      return undefined;
    }
  };

  const server = createServer(async (incoming, outgoing) => {
    const url = parseAbsolute(incoming.url);
    if (url?.protocol !== "http:") {
      outgoing.writeHead(400, { [REFUSED_HEADER]: "1" }).end("the proxy forwards absolute http URLs only");
      return;
    }
    if (overBudget) {
      outgoing.destroy();
      return;
    }
    const shown = `${url.origin}${url.pathname}`;
    const target = await check(url, shown);
    if (target === "failed") {
      outgoing
        .writeHead(502, { "content-type": "text/plain; charset=utf-8", [FAILED_HEADER]: "1" })
        .end(`toolreg's proxy could not reach ${shown}`);
      incoming.resume();
      return;
    }
    if (!target) {
      outgoing
        .writeHead(403, { "content-type": "text/plain; charset=utf-8", [REFUSED_HEADER]: "1" })
        .end(`toolreg's egress policy refused ${shown}`);
      incoming.resume();
      return;
    }
    const upstream = httpRequest({
      host: target.address,
      port: target.port,
      method: incoming.method,
      path: `${url.pathname}${url.search}`,
      headers: forwardedHeaders(incoming),
      timeout: connectTimeoutMs,
    });
    upstream.on("response", (answer) => {
      const raw: string[] = [];
      for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
        const name = answer.rawHeaders[index] as string;
        const lower = name.toLowerCase();
        if (lower === REFUSED_HEADER || HOP_HEADERS.has(lower)) continue;
        raw.push(name, answer.rawHeaders[index + 1] as string);
      }
      outgoing.writeHead(answer.statusCode ?? 502, raw);
      answer.pipe(counted()).pipe(outgoing);
    });
    upstream.on("timeout", () => upstream.destroy(new Error("upstream timed out")));
    upstream.on("error", () => {
      if (!outgoing.headersSent) outgoing.writeHead(502).end();
      else outgoing.destroy();
    });
    incoming.pipe(counted()).pipe(upstream);
  });

  // CONNECT host:port — HTTPS, and WebSockets (Chromium tunnels ws: and wss: alike through a proxy).
  server.on("connect", async (incoming: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on("close", () => sockets.delete(client));
    client.on("error", () => client.destroy());
    const url = parseAbsolute(`https://${incoming.url ?? ""}/`);
    if (!url || !incoming.url || !/^[^/?#@]+:\d{1,5}$/.test(incoming.url)) {
      client.end("HTTP/1.1 400 Bad Request\r\n\r\n");
      return;
    }
    if (overBudget) {
      client.destroy();
      return;
    }
    if (tunnels >= maxTunnels) {
      client.end("HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n");
      return;
    }
    const target = await check(url, `https://${incoming.url}`);
    if (target === "failed") {
      client.end(`HTTP/1.1 502 Bad Gateway\r\n${FAILED_HEADER}: 1\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    if (!target) {
      client.end(`HTTP/1.1 403 Forbidden\r\n${REFUSED_HEADER}: 1\r\ncontent-length: 0\r\n\r\n`);
      return;
    }
    const upstream: Socket = connect({ host: target.address, port: target.port, timeout: connectTimeoutMs });
    sockets.add(upstream);
    tunnels += 1;
    upstream.on("close", () => {
      sockets.delete(upstream);
      tunnels -= 1;
      // A tunnel closed upstream (idle, reset) closes toward Chromium too; a 502 being written is let finish.
      if (!client.writableEnded) client.destroy();
    });
    upstream.once("connect", () => {
      // From here the timeout is an idle one: a tunnel quiet both ways for that long is closed.
      upstream.setTimeout(tunnelIdleMs);
      client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
      if (head.length > 0) upstream.write(head);
      upstream.pipe(counted()).pipe(client);
      client.pipe(counted()).pipe(upstream);
    });
    upstream.on("timeout", () => upstream.destroy());
    upstream.on("error", () => {
      if (client.writable) client.end("HTTP/1.1 502 Bad Gateway\r\ncontent-length: 0\r\n\r\n");
    });
    client.on("close", () => upstream.destroy());
  });

  // A proxy that is asked to upgrade a plain request (not CONNECT) refuses: nothing is tunnelled unchecked.
  server.on("upgrade", (_incoming: IncomingMessage, client: Duplex) => {
    client.end("HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\n\r\n");
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    get trafficBytes() {
      return traffic;
    },
    async close() {
      destroyAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function parseAbsolute(value: string | undefined): URL | undefined {
  if (!value) return undefined;
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

function forwardedHeaders(incoming: IncomingMessage): OutgoingHttpHeaders {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (value === undefined || HOP_HEADERS.has(name)) continue;
    headers[name] = value;
  }
  return headers;
}
