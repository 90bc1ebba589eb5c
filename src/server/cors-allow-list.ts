/**
 * @module CORS for browser MCP clients (`toolreg serve --cors-origin`): only the listed origins may read
 * `/mcp` and the OAuth endpoints from a page. A preflight from any other origin is refused outright, so a
 * browser never sends its request; a listed origin also passes `/mcp`'s DNS-rebinding Origin check.
 */
import { createMiddleware } from "hono/factory";
import { problem } from "./problem.js";
import type { ServerEnv } from "./server-env.js";

const ALLOWED_METHODS = "GET, POST, DELETE, OPTIONS";
const ALLOWED_HEADERS = "authorization, content-type, mcp-session-id, mcp-protocol-version, last-event-id";
// What a browser client must read: its session id, and where to authorize after a 401.
const EXPOSED_HEADERS = "mcp-session-id, mcp-protocol-version, www-authenticate";
const PREFLIGHT_MAX_AGE_S = "600";

/** An origin as browsers send it (`scheme://host[:port]`), or a TypeError naming what is wrong. */
export function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`${JSON.stringify(origin)} is not an origin (scheme://host[:port])`);
  }
  if ((url.protocol !== "http:" && url.protocol !== "https:") || url.origin !== origin.replace(/\/$/, "")) {
    throw new TypeError(`${JSON.stringify(origin)} is not an origin (http(s)://host[:port], no path)`);
  }
  return url.origin;
}

/** Whether a request's Origin header is one the deployment listed. */
export const isListedOrigin = (origins: ReadonlySet<string>, origin: string | null | undefined): boolean =>
  origin !== null && origin !== undefined && origins.has(origin);

export function corsAllowList(origins: ReadonlySet<string>) {
  return createMiddleware<ServerEnv>(async (c, next) => {
    const origin = c.req.header("origin");
    if (origin === undefined) return next();
    const listed = isListedOrigin(origins, origin);
    if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined) {
      if (!listed) {
        return problem(
          403,
          "origin_not_allowed",
          `pages on ${origin.slice(0, 100)} may not call this server; the operator lists the origins that may with --cors-origin`,
        );
      }
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-methods": ALLOWED_METHODS,
          "access-control-allow-headers": ALLOWED_HEADERS,
          "access-control-max-age": PREFLIGHT_MAX_AGE_S,
          vary: "Origin",
        },
      });
    }
    await next();
    if (!listed) return;
    c.header("access-control-allow-origin", origin);
    c.header("access-control-expose-headers", EXPOSED_HEADERS);
    c.header("vary", "Origin", { append: true });
  });
}
