/**
 * @module An MCP server that speaks only OAuth, as the MCP authorization spec has it, on 127.0.0.1: protected
 * resource metadata, authorization server metadata, dynamic client registration, an authorization endpoint
 * that consents at once (the user's click), a token endpoint checking PKCE and the client secret, refresh,
 * and an MCP endpoint (the SDK's server) that answers 401 without a live token and 403 `insufficient_scope`
 * for a tool the token's scopes do not cover. It records what it was sent. With `sessions`, the MCP
 * endpoint keeps a session per client (SSE, a standing GET stream), so a test can ask a client
 * something on its session, and a `wait` tool holds its call until the test lets it end.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

interface Grant {
  clientId: string;
  scope: string;
}

export interface OAuthMcpServer {
  /** The MCP endpoint. */
  url: string;
  /** The authorization server's issuer (its origin). */
  issuer: string;
  tokenRequests: Record<string, string>[];
  authorizeRequests: URLSearchParams[];
  /** The bearer tokens the MCP endpoint accepted, in order. */
  accepted: string[];
  /** Each accepted MCP request's method, the tool it called and the bearer it carried, in order. */
  requests: { method: string; tool: string | undefined; token: string }[];
  /** What the authorization endpoint sends back as `iss` (RFC 9207); the issuer by default. */
  answerIssuer: string;
  /** With `sessions`: each session's server (to ask its client) and the bearer it was opened with. */
  sessions: { token: string; server: Server }[];
  /** With `sessions`: the ends of the `wait` calls in flight, in order; calling one lets it return. */
  waiting: (() => void)[];
  /** Every access token issued so far is refused from now on (as when they expire). */
  expireTokens(): void;
  close(): Promise<void>;
}

export async function startOAuthMcpServer(options: { sessions?: boolean } = {}): Promise<OAuthMcpServer> {
  const clients = new Map<string, string>();
  const codes = new Map<string, Grant & { challenge: string; redirectUri: string }>();
  const access = new Map<string, Grant>();
  const refresh = new Map<string, Grant>();
  let origin = "";
  const fixture: OAuthMcpServer = {
    url: "",
    issuer: "",
    tokenRequests: [],
    authorizeRequests: [],
    accepted: [],
    requests: [],
    sessions: [],
    waiting: [],
    answerIssuer: "",
    expireTokens: () => access.clear(),
    close: async () => {},
  };
  const open = new Map<string, StreamableHTTPServerTransport>();
  const prm = () => `${origin}/.well-known/oauth-protected-resource/mcp`;
  const json = (response: ServerResponse, status: number, body: unknown) => {
    response.writeHead(status, { "content-type": "application/json" });
    response.end(JSON.stringify(body));
  };
  const issue = (grant: Grant) => {
    const accessToken = randomBytes(24).toString("base64url");
    const refreshToken = randomBytes(24).toString("base64url");
    access.set(accessToken, grant);
    refresh.set(refreshToken, grant);
    return {
      access_token: accessToken,
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: refreshToken,
      scope: grant.scope,
    };
  };

  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", origin);
    const body = await readBody(request);
    if (request.method === "GET" && url.pathname === "/.well-known/oauth-protected-resource/mcp") {
      return json(response, 200, { resource: `${origin}/mcp`, authorization_servers: [origin] });
    }
    if (request.method === "GET" && url.pathname === "/.well-known/oauth-authorization-server") {
      return json(response, 200, {
        issuer: origin,
        authorization_endpoint: `${origin}/authorize`,
        token_endpoint: `${origin}/token`,
        registration_endpoint: `${origin}/register`,
        response_types_supported: ["code"],
        grant_types_supported: ["authorization_code", "refresh_token"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["client_secret_post"],
        authorization_response_iss_parameter_supported: true,
      });
    }
    if (request.method === "POST" && url.pathname === "/register") {
      const metadata = JSON.parse(body) as Record<string, unknown>;
      const clientId = `client-${randomBytes(6).toString("hex")}`;
      const secret = randomBytes(16).toString("hex");
      clients.set(clientId, secret);
      return json(response, 201, {
        ...metadata,
        client_id: clientId,
        client_secret: secret,
        token_endpoint_auth_method: "client_secret_post",
      });
    }
    if (request.method === "GET" && url.pathname === "/authorize") {
      fixture.authorizeRequests.push(url.searchParams);
      const query = url.searchParams;
      const redirect = new URL(query.get("redirect_uri") ?? "");
      const code = randomBytes(16).toString("hex");
      codes.set(code, {
        clientId: query.get("client_id") ?? "",
        scope: query.get("scope") ?? "",
        challenge: query.get("code_challenge") ?? "",
        redirectUri: redirect.href,
      });
      redirect.searchParams.set("code", code);
      redirect.searchParams.set("state", query.get("state") ?? "");
      redirect.searchParams.set("iss", fixture.answerIssuer);
      response.writeHead(302, { location: redirect.href });
      return response.end();
    }
    if (request.method === "POST" && url.pathname === "/token") {
      const form = Object.fromEntries(new URLSearchParams(body));
      fixture.tokenRequests.push(form);
      if (clients.get(form.client_id ?? "") !== form.client_secret) {
        return json(response, 401, { error: "invalid_client" });
      }
      if (form.grant_type === "authorization_code") {
        const grant = codes.get(form.code ?? "");
        codes.delete(form.code ?? "");
        const verified =
          grant !== undefined &&
          grant.clientId === form.client_id &&
          grant.redirectUri === form.redirect_uri &&
          createHash("sha256")
            .update(form.code_verifier ?? "")
            .digest("base64url") === grant.challenge;
        if (!verified) return json(response, 400, { error: "invalid_grant" });
        return json(response, 200, issue(grant));
      }
      if (form.grant_type === "refresh_token") {
        const grant = refresh.get(form.refresh_token ?? "");
        if (!grant) return json(response, 400, { error: "invalid_grant" });
        refresh.delete(form.refresh_token ?? "");
        return json(response, 200, issue(grant));
      }
      return json(response, 400, { error: "unsupported_grant_type" });
    }
    if (url.pathname === "/mcp" && (request.method === "POST" || options.sessions)) {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      const grant = token === undefined ? undefined : access.get(token);
      if (token === undefined || !grant) {
        response.writeHead(401, {
          "www-authenticate": `Bearer error="invalid_token", resource_metadata="${prm()}", scope="notes:read"`,
        });
        return response.end();
      }
      const message = (body ? JSON.parse(body) : {}) as { method?: string; params?: { name?: string } };
      const scopes = grant.scope.split(" ");
      if (
        message.method === "tools/call" &&
        message.params?.name === "write_note" &&
        !scopes.includes("notes:write")
      ) {
        response.writeHead(403, {
          "www-authenticate": `Bearer error="insufficient_scope", scope="notes:read notes:write", resource_metadata="${prm()}"`,
        });
        return response.end();
      }
      fixture.accepted.push(token);
      if (request.method !== "POST") {
        const session = open.get(String(request.headers["mcp-session-id"]));
        if (!session) return json(response, 404, { error: "no such session" });
        return session.handleRequest(request, response);
      }
      fixture.requests.push({ method: message.method ?? "", tool: message.params?.name, token });
      const session = options.sessions ? open.get(String(request.headers["mcp-session-id"])) : undefined;
      if (session) return session.handleRequest(request, response, JSON.parse(body));
      if (options.sessions) {
        const mcp = notesServer(fixture.waiting);
        const transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: randomUUID,
          onsessioninitialized: (id) => {
            open.set(id, transport);
            fixture.sessions.push({ token, server: mcp.server });
          },
        });
        await mcp.connect(transport);
        return transport.handleRequest(request, response, JSON.parse(body));
      }
      const mcp = notesServer();
      const transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await mcp.connect(transport);
      await transport.handleRequest(request, response, JSON.parse(body));
      return;
    }
    response.writeHead(url.pathname === "/mcp" ? 405 : 404);
    response.end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fixture.url = `${origin}/mcp`;
  fixture.issuer = origin;
  fixture.answerIssuer = origin;
  fixture.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fixture;
}

/** With `waiting` (sessions), a `wait` tool too, which returns once the test calls its end. */
function notesServer(waiting?: (() => void)[]): McpServer {
  const server = new McpServer({ name: "notes", version: "1.0.0" });
  if (waiting) {
    server.registerTool(
      "wait",
      { description: "Waits to be let go.", annotations: { readOnlyHint: true } },
      async () => {
        await new Promise<void>((resolve) => waiting.push(resolve));
        return { content: [{ type: "text", text: "waited" }] };
      },
    );
  }
  server.registerTool(
    "read_note",
    {
      description: "Reads a note.",
      inputSchema: { id: z.string() },
      annotations: { readOnlyHint: true },
    },
    async ({ id }) => ({ content: [{ type: "text", text: `note ${id}: buy milk` }] }),
  );
  server.registerTool(
    "write_note",
    { description: "Writes a note.", inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: "text", text: `saved: ${text}` }] }),
  );
  return server;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    request.on("error", reject);
  });
}
