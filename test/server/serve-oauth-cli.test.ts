/**
 * @module `toolreg serve` as an OAuth authorization server, run as a user would: it serves the discovery
 * metadata (under --public-url when given), answers a --cors-origin's preflight, and a grant made through
 * its console is listed by `toolreg keys list` and ended by `toolreg keys revoke`.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CLI, runToolreg } from "../cli/run-cli.js";
import { authorizeUrl, consent, pkcePair } from "../support/oauth-user.js";

let child: ChildProcess | undefined;
let cwd: string;
afterEach(() => {
  child?.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts `toolreg serve` and returns its URL and console link once it printed them. */
function serve(args: string[]): Promise<{ url: string; link: string }> {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-serve-oauth-"));
  let stdout = "";
  child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${stdout}`)), 20_000);
    child?.stdout?.on("data", (chunk) => {
      stdout += chunk.toString();
      const url = /toolreg registry on (http:\/\/\S+)/.exec(stdout)?.[1];
      const link = /console: (\S+\/login\?token=\S+)/.exec(stdout)?.[1];
      if (url && link) {
        clearTimeout(timer);
        resolve({ url, link });
      }
    });
  });
}

const json = async (response: Response) => (await response.json()) as Record<string, unknown>;

describe("toolreg serve as an OAuth authorization server", () => {
  it("serves the metadata, a listed origin's preflight, and grants that toolreg keys lists and revokes", async () => {
    const { url, link } = await serve(["--cors-origin", "http://app.example"]);
    expect(await json(await fetch(`${url}/.well-known/oauth-protected-resource/mcp`))).toMatchObject({
      resource: `${url}/mcp`,
      authorization_servers: [url],
    });
    expect(await json(await fetch(`${url}/.well-known/oauth-authorization-server`))).toMatchObject({
      issuer: url,
      authorization_endpoint: `${url}/oauth/authorize`,
      token_endpoint: `${url}/oauth/token`,
      registration_endpoint: `${url}/oauth/register`,
      revocation_endpoint: `${url}/oauth/revoke`,
      code_challenge_methods_supported: ["S256"],
      client_id_metadata_document_supported: true,
    });
    // A client ID metadata document is fetched through serve's egress: without --egress-allow, not from loopback.
    const documentClient = new URL(`${url}/oauth/authorize`);
    documentClient.searchParams.set("client_id", "https://127.0.0.1:9/client.json");
    const unfetched = await fetch(documentClient, { redirect: "manual" });
    expect(unfetched.status).toBe(400);
    expect(await unfetched.text()).toMatch(/could not be fetched: .*loopback/);
    const preflight = (origin: string) =>
      fetch(`${url}/mcp`, {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
    expect((await preflight("http://app.example")).status).toBe(204);
    expect((await preflight("http://other.example")).status).toBe(403);

    // A grant, as a client and its user would make one.
    const redirectUri = "http://127.0.0.1:9/callback";
    const registered = await json(
      await fetch(`${url}/oauth/register`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ client_name: "cli client", redirect_uris: [redirectUri] }),
      }),
    );
    const cookie = (await fetch(link, { redirect: "manual" })).headers.get("set-cookie")!.split(";")[0]!;
    const { verifier, challenge } = pkcePair();
    const authorize = authorizeUrl(url, {
      client_id: registered.client_id as string,
      redirect_uri: redirectUri,
      code_challenge: challenge,
    });
    const code = (await consent(authorize, cookie, "allow")).searchParams.get("code")!;
    const tokens = await json(
      await fetch(`${url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          client_id: registered.client_id as string,
          code,
          code_verifier: verifier,
          redirect_uri: redirectUri,
        }),
      }),
    );
    const mcp = () =>
      fetch(`${url}/mcp`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${tokens.access_token}`,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
      });
    expect((await mcp()).status).toBe(200);

    const listed = await runToolreg(["keys", "list"], cwd);
    const row = listed.stdout.split("\n").find((line) => line.includes("oauth: cli client"));
    expect(row).toMatch(
      /^[0-9a-f]{20} +local +operator +- +active +no +\d{4}-\d\d-\d\dT\S+ +- +oauth: cli client/,
    );
    const id = row!.split(" ")[0]!;
    expect((await runToolreg(["keys", "revoke", id], cwd)).stdout).toBe(`revoked ${id}\n`);
    // Without a bus, another process's revocation reaches the server's key cache within its second.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect((await mcp()).status).toBe(401);
  });

  it("names the --public-url origin as issuer and resource, and refuses a --cors-origin that is no origin", async () => {
    const { url } = await serve(["--public-url", "https://tools.example"]);
    expect(await json(await fetch(`${url}/.well-known/oauth-authorization-server`))).toMatchObject({
      issuer: "https://tools.example",
      token_endpoint: "https://tools.example/oauth/token",
    });
    const refused = await fetch(`${url}/mcp`, { method: "POST" });
    expect(refused.headers.get("www-authenticate")).toContain(
      'resource_metadata="https://tools.example/.well-known/oauth-protected-resource/mcp"',
    );
    const wrong = await runToolreg(
      ["serve", "--port", "0", "--cors-origin", "https://app.example/path"],
      cwd,
    );
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain("--cors-origin");
  });
});
