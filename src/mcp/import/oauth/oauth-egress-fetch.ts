/**
 * @module The `fetch` an OAuth-importing connection gives the SDK's transport, which uses it for the MCP
 * requests and for the whole authorization flow (metadata, registration, token requests). Everything
 * still goes through the egress client. Egress lets no caller set `authorization`, so the header the SDK
 * writes (the bearer, or a client's Basic credentials at a token endpoint) is taken off the request and
 * injected by egress as a credential placement for that host, resolved for this one request. Metadata
 * documents are plain GETs, read whole; the MCP requests go on to the import's own egress fetch.
 */
import type { FetchLike } from "@modelcontextprotocol/sdk/shared/transport.js";
import { createEgressClient, type EgressClient } from "../../../egress/egress-client.js";
import type { EgressPolicyInit } from "../../../egress/egress-policy.js";
import type { EgressCaller } from "../../../egress/request-headers.js";
import { egressFetch } from "../egress-fetch.js";

/** The credential reference egress resolves to the `authorization` header the SDK wrote for this request. */
const AUTHORIZATION_REF = "mcp-oauth:authorization";

export interface OAuthEgressFetch {
  fetch: FetchLike;
  close(): Promise<void>;
}

export function oauthEgressFetch(
  policy: EgressPolicyInit,
  caller: Pick<EgressCaller, "tenantId" | "principalId">,
  /** Sees each answer's status and headers before the SDK does (a 403's `insufficient_scope`). */
  onAnswer: (response: Response) => void = () => {},
): OAuthEgressFetch {
  const plain = createEgressClient({ policy: { ...policy, credentials: {} } });
  /** One client per host the SDK sends an `authorization` header to: the placement names its host. */
  const carrying = new Map<string, EgressClient>();
  const clientFor = (host: string): EgressClient => {
    let client = carrying.get(host);
    if (!client) {
      client = createEgressClient({
        policy: {
          ...policy,
          credentials: { [host]: { header: "authorization", credentialRef: AUTHORIZATION_REF } },
        },
      });
      carrying.set(host, client);
    }
    return client;
  };
  const fetch: FetchLike = async (input, init = {}) => {
    const url = new URL(String(input));
    const headers = new Headers(init.headers);
    const authorization = headers.get("authorization") ?? undefined;
    headers.delete("authorization");
    const body = init.body instanceof URLSearchParams ? init.body.toString() : init.body;
    const client = authorization === undefined ? plain : clientFor(url.hostname);
    const requestCaller: EgressCaller = {
      ...caller,
      credentials: {
        resolve: async (ref) => {
          if (ref !== AUTHORIZATION_REF || authorization === undefined) throw new Error("no credential");
          return authorization;
        },
      },
    };
    const method = (init.method ?? "GET").toUpperCase();
    const metadata = method === "GET" && !headers.has("last-event-id") && !acceptsEventStream(headers);
    if (!metadata) {
      const answer = await egressFetch(client, requestCaller)(url, { ...init, headers, body });
      onAnswer(answer);
      return answer;
    }
    const response = await client.request(url.href, {
      method: "GET",
      headers: Object.fromEntries(headers.entries()),
      ...(init.signal ? { signal: init.signal } : {}),
      caller: requestCaller,
    });
    const empty = response.status === 204 || response.status === 304;
    return new Response(empty ? null : new Uint8Array(response.body), {
      status: response.status,
      headers: response.headers,
    });
  };
  return {
    fetch,
    close: async () => {
      await Promise.allSettled([plain.close(), ...[...carrying.values()].map((client) => client.close())]);
    },
  };
}

function acceptsEventStream(headers: Headers): boolean {
  return (headers.get("accept") ?? "").includes("text/event-stream");
}
