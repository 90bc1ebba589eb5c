/**
 * @module A `fetch` for the SDK's Streamable HTTP client that sends every request through the egress
 * client: the address checked and pinned, redirects refused, bodies bounded, credentials only from the
 * deployment's policy. Replies stream as they arrive, so a server's request during a call (sampling,
 * elicitation, roots) is heard and answered before the call ends, and a stream the server closed early is
 * resumed with a GET carrying `Last-Event-ID` after the server's `retry:` wait (the SDK's transport does
 * both). The standing GET stream, where a server sends notifications and requests tied to no call, is
 * opened the same way; the egress time limit ends it, and the SDK's transport opens it again.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { EGRESS_METHODS, type EgressClient, type EgressMethod } from "../../egress/egress-client.js";
import type { EgressCaller } from "../../egress/request-headers.js";

export function egressFetch(egress: EgressClient, caller: EgressCaller): FetchLike {
  return async (url, init = {}) => {
    const method = (init.method ?? "GET").toUpperCase();
    if (!(EGRESS_METHODS as readonly string[]).includes(method)) {
      return new Response(null, { status: 405, statusText: "Method Not Allowed" });
    }
    const headers = Object.fromEntries(new Headers(init.headers).entries());
    const body = typeof init.body === "string" ? init.body : undefined;
    const response = await egress.request(url, {
      method: method as EgressMethod,
      headers,
      ...(body === undefined ? {} : { body }),
      ...(init.signal ? { signal: init.signal } : {}),
      caller,
      streamed: true,
    });
    // 204 and 304 carry no body, and a Response refuses one for them.
    const empty = response.status === 204 || response.status === 304 || method === "HEAD";
    if (empty) await response.stream?.cancel();
    return new Response(empty ? null : (response.stream ?? null), {
      status: response.status,
      headers: response.headers,
    });
  };
}
