/**
 * @module The whole OAuth flow with the official SDK client's OAuth support against a real server on
 * 127.0.0.1: a 401 naming the resource metadata, discovery, dynamic registration, consent by a user logged
 * in to the console, the code at a local callback, tokens, tools listed and called as that user, a refresh
 * with rotation, and revocation with `toolreg keys revoke`, after which the token gets a 401.
 */
import { auth, UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { InvalidGrantError } from "@modelcontextprotocol/sdk/server/auth/errors.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, jsonBody, startFixture } from "../../../test/server/server-fixture.js";
import {
  consent,
  consoleLogin,
  MemoryOAuthProvider,
  startCallback,
} from "../../../test/support/oauth-user.js";
import type { CliIo } from "../../cli/cli-io.js";
import { listKeysCommand, revokeKeyCommand } from "../../cli/commands/keys.js";

let fixture: Fixture;
let callback: Awaited<ReturnType<typeof startCallback>>;
beforeAll(async () => {
  fixture = await startFixture();
  callback = await startCallback();
});
afterAll(async () => {
  await fixture.close();
  await callback.close();
});

const INITIALIZE = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "t", version: "0" } },
};

/** A CLI io that keeps what a command prints. */
function output(): CliIo & { out: string } {
  const io = {
    out: "",
    stdout(text: string) {
      io.out += text;
    },
    stderr() {},
    cwd: process.cwd(),
    env: {},
  };
  return io;
}

describe("OAuth for /mcp with the SDK client", () => {
  it("authorizes, serves the user's tools as the user, refreshes with rotation, and stops at revocation", async () => {
    const mcpUrl = new URL(`${fixture.url}/mcp`);
    // The 401 says where an OAuth client begins.
    const anonymous = await fixture.call("/mcp", jsonBody(INITIALIZE));
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toBe(
      `Bearer realm="toolreg", resource_metadata="${fixture.url}/.well-known/oauth-protected-resource/mcp"`,
    );

    const provider = new MemoryOAuthProvider(callback.url);
    const connect = async () => {
      const client = new Client({ name: "oauth-test", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      return client;
    };
    // Discovery and registration happen inside connect; it stops where a person must consent.
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.client?.client_id).toMatch(/^[0-9a-f]{32}$/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${fixture.url}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get("code_challenge_method")).toBe("S256");
    expect(authorizationUrl.searchParams.get("resource")).toBe(mcpUrl.href);

    const cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "alice");
    const redirect = await consent(authorizationUrl, cookie, "allow");
    expect(redirect.origin + redirect.pathname).toBe(callback.url);
    await fetch(redirect);
    const answered = callback.received.at(-1)!;
    expect(answered.get("iss")).toBe(fixture.url);
    const finishing = new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider });
    await finishing.finishAuth(answered.get("code")!);
    const firstTokens = provider.saved!;
    expect(firstTokens).toMatchObject({
      token_type: "Bearer",
      expires_in: 3600,
      refresh_token: expect.any(String),
    });

    // The grant is alice's, in tenant-a: her tenant's tools, her name on a parked call.
    const client = await connect();
    expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual([
      "calculate",
      "send_email",
      "slow_report",
      "slow_write",
    ]);
    const sum = await client.callTool({ name: "calculate", arguments: { expression: "6*7" } });
    expect(sum.content).toEqual([{ type: "text", text: "42" }]);
    const parked = await client.callTool({ name: "send_email", arguments: { to: "x@y.test" } });
    const approvalId = parked._meta?.["toolreg/approvalId"] as string;
    const inbox = await fixture.call(`/api/v1/approvals/${approvalId}`, { key: fixture.keys.aliceOperator });
    expect(await inbox.json()).toMatchObject({ tenantId: "tenant-a", requestedBy: "alice" });
    await client.close();

    // Listed beside the API keys, as an expiring key that is no operator.
    const listed = output();
    await listKeysCommand(fixture.server.auth, { tenant: "tenant-a", json: true }, listed);
    const grant = (
      JSON.parse(listed.out) as { id: string; label?: string; operator: boolean; expiresAt?: number }[]
    ).find((key) => key.label?.startsWith("oauth: oauth test client"))!;
    expect(grant).toMatchObject({ operator: false, expiresAt: expect.any(Number) });
    expect(firstTokens.access_token.startsWith(`trk_${grant.id}_`)).toBe(true);

    // A refresh rotates both tokens; the old access token and the old refresh token stop.
    await expect(auth(provider, { serverUrl: mcpUrl })).resolves.toBe("AUTHORIZED");
    const refreshed = provider.saved!;
    expect(refreshed.access_token).not.toBe(firstTokens.access_token);
    expect(refreshed.refresh_token).not.toBe(firstTokens.refresh_token);
    expect(refreshed.access_token.startsWith(`trk_${grant.id}_`)).toBe(true);
    expect(
      (await fixture.call("/mcp", { ...jsonBody(INITIALIZE), key: firstTokens.access_token })).status,
    ).toBe(401);
    // (Presenting the old refresh token again would end the grant: oauth-revocation.test.ts.)
    const again = await connect();
    expect((await again.callTool({ name: "calculate", arguments: { expression: "1+1" } })).content).toEqual([
      { type: "text", text: "2" },
    ]);
    await again.close();

    // Revoked as any key is, told to the instances as keys are: the next request is a 401.
    const revoked = output();
    expect(await revokeKeyCommand(fixture.server.auth, grant.id, revoked)).toBe(0);
    // What an instance does on hearing `key.revoked` from the bus (instance-events.test.ts): the key cache drops it.
    fixture.server.deps.keys.forget(grant.id);
    const refused = await fixture.call("/mcp", { ...jsonBody(INITIALIZE), key: refreshed.access_token });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toContain('error="invalid_token"');
    const refreshAfterRevoke = await tokenRequest({
      grant_type: "refresh_token",
      refresh_token: refreshed.refresh_token!,
      client_id: provider.client!.client_id,
    });
    expect(await refreshAfterRevoke.json()).toMatchObject({ error: "invalid_grant" });
    // The SDK client, refused, cannot refresh either: the grant is gone, and it is told so.
    await expect(connect()).rejects.toBeInstanceOf(InvalidGrantError);
  });
});

function tokenRequest(fields: Record<string, string>): Promise<Response> {
  return fetch(`${fixture.url}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}
