/**
 * @module The CORS allow-list against a real server: a listed origin's preflight and requests to /mcp and
 * the OAuth endpoints are answered with its headers (and /mcp's DNS-rebinding check lets it through); any
 * other origin's preflight is refused and its request to /mcp too.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../../test/server/server-fixture.js";
import { checkOrigin } from "./cors-allow-list.js";

const LISTED = "http://app.example";
const OTHER = "http://evil.example";

let fixture: Fixture;
beforeAll(async () => {
  fixture = await startFixture({ corsOrigins: [LISTED] });
});
afterAll(() => fixture.close());

const preflight = (path: string, origin: string) =>
  fixture.call(path, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": "POST",
      "access-control-request-headers": "authorization, content-type, mcp-protocol-version",
    },
  });

const initialize = (origin: string) =>
  fixture.call("/mcp", {
    method: "POST",
    key: fixture.keys.agentA,
    headers: { origin, "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "page", version: "0" } },
    }),
  });

describe("CORS allow-list", () => {
  it("answers a listed origin's preflight to /mcp and the OAuth endpoints", async () => {
    for (const path of [
      "/mcp",
      "/oauth/token",
      "/oauth/register",
      "/.well-known/oauth-authorization-server",
    ]) {
      const response = await preflight(path, LISTED);
      expect(response.status).toBe(204);
      expect(response.headers.get("access-control-allow-origin")).toBe(LISTED);
      expect(response.headers.get("access-control-allow-headers")).toContain("mcp-protocol-version");
      expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    }
  });

  it("refuses any other origin's preflight", async () => {
    for (const path of ["/mcp", "/oauth/token", "/.well-known/oauth-protected-resource/mcp"]) {
      const response = await preflight(path, OTHER);
      expect(response.status).toBe(403);
      expect(response.headers.get("access-control-allow-origin")).toBeNull();
      expect(await response.json()).toMatchObject({ code: "origin_not_allowed" });
    }
  });

  it("lets a listed origin past /mcp's rebinding check, exposing the session id; refuses another", async () => {
    const listed = await initialize(LISTED);
    expect(listed.status).toBe(200);
    expect(listed.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(listed.headers.get("access-control-expose-headers")).toContain("mcp-session-id");
    expect(listed.headers.get("mcp-session-id")).toEqual(expect.any(String));
    const other = await initialize(OTHER);
    expect(other.status).toBe(403);
    expect(other.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("exposes WWW-Authenticate on a listed origin's 401, and serves it the metadata", async () => {
    const refused = await fixture.call("/mcp", { method: "POST", headers: { origin: LISTED } });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(refused.headers.get("access-control-expose-headers")).toContain("www-authenticate");
    const metadata = await fixture.call("/.well-known/oauth-protected-resource/mcp", {
      headers: { origin: LISTED },
    });
    expect(metadata.headers.get("access-control-allow-origin")).toBe(LISTED);
    expect(await metadata.json()).toMatchObject({ resource: `${fixture.url}/mcp` });
  });

  it("takes only origins: scheme, host and port", () => {
    expect(checkOrigin("https://app.example/")).toBe("https://app.example");
    expect(() => checkOrigin("https://app.example/path")).toThrow(/not an origin/);
    expect(() => checkOrigin("app.example")).toThrow(/not an origin/);
    expect(() => checkOrigin("ftp://app.example")).toThrow(/not an origin/);
  });
});
