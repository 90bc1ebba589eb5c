/**
 * @module Reading a token endpoint's answer, from a server on 127.0.0.1 through the real egress client: the
 * granted scopes as RFC 6749 §3.3 joins them (spaces) and as GitHub does (commas, in JSON and form-encoded,
 * docs.github.com "Authorizing OAuth apps").
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createEgressClient, type EgressClient } from "../../egress/egress-client.js";
import { requestToken } from "./token-endpoint.js";

let answer = { type: "application/json", body: "" };
let server: Server | undefined;
let tokenUrl = "";
beforeAll(async () => {
  server = createServer((_request, response) => {
    response.writeHead(200, { "content-type": answer.type });
    response.end(answer.body);
  });
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  tokenUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/login/oauth/access_token`;
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

let egress: EgressClient;
beforeEach(() => {
  egress = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
});
afterEach(() => egress.close());

const scopesOf = async (type: string, body: string) => {
  answer = { type, body };
  const tokens = await requestToken(
    egress,
    tokenUrl,
    { clientId: "toolreg" },
    { type: "authorization_code", code: "c", codeVerifier: "v", redirectUri: "https://toolreg.example/cb" },
    0,
  );
  return tokens.scopes;
};

describe("the scopes a token endpoint granted", () => {
  it("reads GitHub's comma-joined scope, in JSON and form-encoded", async () => {
    expect(
      await scopesOf(
        "application/json; charset=utf-8",
        JSON.stringify({ access_token: "gho_x", scope: "repo,gist", token_type: "bearer" }),
      ),
    ).toEqual(["repo", "gist"]);
    expect(
      await scopesOf(
        "application/x-www-form-urlencoded",
        "access_token=gho_x&scope=repo%2Cgist&token_type=bearer",
      ),
    ).toEqual(["repo", "gist"]);
  });

  it("reads RFC 6749's space-joined scope, and an empty one as nothing granted", async () => {
    const token = { access_token: "at", token_type: "Bearer" };
    expect(
      await scopesOf("application/json", JSON.stringify({ ...token, scope: "notes:read notes:write" })),
    ).toEqual(["notes:read", "notes:write"]);
    expect(await scopesOf("application/json", JSON.stringify({ ...token, scope: "" }))).toEqual([]);
    // No scope member: what was asked for was granted (§5.1), which the caller knows, not this client.
    expect(await scopesOf("application/json", JSON.stringify(token))).toBeUndefined();
  });
});
