/**
 * @module The vendor's API, on 127.0.0.1: it accepts only access tokens the provider issued for it, asking
 * the provider's introspection endpoint (RFC 7662 §2) with its own client, and answers as RFC 6750 §3.1
 * says: 401 `invalid_token` for a token that is unknown, expired or revoked, 403 `insufficient_scope` for
 * one without the scope the endpoint needs.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type Introspection, NOTES_API, type ProviderFixture } from "./oidc-provider-fixture.js";

export interface NotesApiFake {
  url: string;
  /** Every request the API answered, with who it was for (the token's subject) and how. */
  requests: { method: string; path: string; subject: string | undefined; status: number }[];
  close(): Promise<void>;
}

export async function startNotesApi(provider: ProviderFixture): Promise<NotesApiFake> {
  const requests: NotesApiFake["requests"] = [];
  const respond = (
    response: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    response.writeHead(status, { "content-type": "application/json", ...headers });
    response.end(JSON.stringify(body));
  };
  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const path = new URL(request.url ?? "/", "http://notes").pathname;
    const method = request.method ?? "GET";
    const record = (status: number, subject?: string) => requests.push({ method, path, subject, status });
    const token = /^Bearer ([A-Za-z0-9._~+/=-]+)$/.exec(request.headers.authorization ?? "")?.[1];
    const found: Introspection = token ? await provider.introspect(token) : { active: false };
    const audiences = [found.aud ?? []].flat();
    if (!found.active || !audiences.includes(NOTES_API)) {
      record(401);
      return respond(
        response,
        401,
        { error: "invalid_token" },
        { "www-authenticate": 'Bearer error="invalid_token"' },
      );
    }
    const needed = method === "GET" ? "notes:read" : "notes:write";
    if (!(found.scope ?? "").split(" ").includes(needed)) {
      record(403, found.sub);
      return respond(
        response,
        403,
        { error: "insufficient_scope" },
        {
          "www-authenticate": `Bearer error="insufficient_scope", scope="${needed}"`,
        },
      );
    }
    record(method === "GET" ? 200 : 201, found.sub);
    if (method === "GET")
      return respond(response, 200, { id: path.split("/").pop(), owner: found.sub, text: "hello" });
    return respond(response, 201, { id: "n-new", owner: found.sub });
  };
  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => respond(response, 500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
