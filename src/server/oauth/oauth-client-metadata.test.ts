import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Fixture, startFixture } from "../../../test/server/server-fixture.js";
import {
  type HttpsDocuments,
  LOOPBACK_CERTIFICATE,
  serveHttpsDocuments,
} from "../../../test/support/https-documents.js";
import {
  authorizeUrl,
  consent,
  consoleLogin,
  MemoryOAuthProvider,
  pkcePair,
  startCallback,
} from "../../../test/support/oauth-user.js";
import { createEgressClient } from "../../egress/egress-client.js";
import { MAX_DOCUMENT_BYTES } from "./client-metadata-documents.js";

const REDIRECT = "http://127.0.0.1:9/callback";

let fixture: Fixture;
/** A server whose egress policy is the default: public addresses only. */
let unallowed: Fixture;
let site: HttpsDocuments;
/** Egress as the operator's `--egress-allow` would make it: loopback allowed, or (the default) not. */
const allowing = createEgressClient({
  policy: { allowAddressClasses: ["loopback"] },
  extraCertificates: [LOOPBACK_CERTIFICATE],
});
const publicOnly = createEgressClient({ extraCertificates: [LOOPBACK_CERTIFICATE] });
let callback: Awaited<ReturnType<typeof startCallback>>;
beforeAll(async () => {
  site = await serveHttpsDocuments();
  callback = await startCallback();
  fixture = await startFixture({ oauth: { clientMetadataFetcher: allowing } });
  unallowed = await startFixture({ oauth: { clientMetadataFetcher: publicOnly } });
});
afterAll(async () => {
  await fixture.close();
  await unallowed.close();
  await allowing.close();
  await publicOnly.close();
  await callback.close();
  await site.close();
});

/** Serves `document` at `path` on the site and returns the URL, the client_id it stands for. */
function publish(path: string, document: (url: string) => Record<string, unknown> | string, type?: string) {
  const url = `${site.origin}${path}`;
  const body = document(url);
  site.documents.set(path, {
    body: typeof body === "string" ? body : JSON.stringify(body),
    ...(type ? { type } : {}),
  });
  return url;
}

class DocumentOAuthProvider extends MemoryOAuthProvider {
  constructor(
    redirectUrl: string,
    readonly clientMetadataUrl: string,
  ) {
    super(redirectUrl, "document client");
  }
}

function authorizationUrl(server: Fixture, clientId: string): URL {
  return authorizeUrl(server.url, {
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: pkcePair().challenge,
    state: "s-1",
  });
}

/** Opens the authorization URL as a logged-in user would and expects the refusal page, never a redirect. */
async function expectRefusalPage(server: Fixture, clientId: string, reason: RegExp): Promise<void> {
  const cookie = await consoleLogin(server.url, server.server.auth, "tenant-a", "alice");
  const page = await fetch(authorizationUrl(server, clientId), { headers: { cookie }, redirect: "manual" });
  expect(page.status).toBe(400);
  expect(page.headers.get("location")).toBeNull();
  const html = await page.text();
  expect(html).toContain("This authorization request cannot be answered");
  expect(html).toMatch(reason);
}

describe("client ID metadata documents", () => {
  it("advertises them, and the SDK client is authorized with its document's URL as client_id", async () => {
    const metadata = await (await fetch(`${fixture.url}/.well-known/oauth-authorization-server`)).json();
    expect(metadata).toMatchObject({ client_id_metadata_document_supported: true });

    const documentUrl = publish("/clients/desktop.json", (url) => ({
      client_id: url,
      client_name: "Desktop by document",
      redirect_uris: [callback.url],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    }));
    const provider = new DocumentOAuthProvider(callback.url, documentUrl);
    const mcpUrl = new URL(`${fixture.url}/mcp`);
    const connect = async () => {
      const client = new Client({ name: "cimd-test", version: "0" });
      await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }));
      return client;
    };
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    // No registration: the client_id is the document's URL.
    expect(provider.client?.client_id).toBe(documentUrl);
    const authorization = provider.authorizationUrl!;
    expect(authorization.searchParams.get("client_id")).toBe(documentUrl);

    const cookie = await consoleLogin(fixture.url, fixture.server.auth, "tenant-a", "alice");
    const page = await fetch(authorization, { headers: { cookie } });
    expect(await page.text()).toContain("Desktop by document");
    const redirect = await consent(authorization, cookie, "allow");
    expect(redirect.origin + redirect.pathname).toBe(callback.url);
    await fetch(redirect);
    const code = callback.received.at(-1)!.get("code")!;
    await new StreamableHTTPClientTransport(mcpUrl, { authProvider: provider }).finishAuth(code);

    const client = await connect();
    const sum = await client.callTool({ name: "calculate", arguments: { expression: "6*7" } });
    expect(sum.content).toEqual([{ type: "text", text: "42" }]);
    await client.close();
    // The consent page, its answer and the token exchange read the document; it was fetched once.
    expect(site.hits.get("/clients/desktop.json")).toBe(1);
    const grant = (await fixture.server.auth.listKeys({ tenantId: "tenant-a" })).find((key) =>
      key.label?.startsWith("oauth: Desktop by document"),
    );
    expect(grant?.label).toContain(documentUrl);
  });

  it("refuses a document that names another client, and a redirect URI it does not list", async () => {
    const other = publish("/clients/other.json", () => ({
      client_id: `${site.origin}/clients/someone-else.json`,
      redirect_uris: [REDIRECT],
    }));
    await expectRefusalPage(fixture, other, /names another client_id/);
    const elsewhere = publish("/clients/elsewhere.json", (url) => ({
      client_id: url,
      redirect_uris: ["http://127.0.0.1:9/not-the-callback"],
    }));
    await expectRefusalPage(fixture, elsewhere, /redirect_uri is not one of the client&#39;s redirect_uris/);
    // At the token endpoint the same document is an unusable client.
    const token = await fetch(`${fixture.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: "x", client_id: other }),
    });
    expect(token.status).toBe(401);
    expect(await token.json()).toMatchObject({
      error: "invalid_client",
      error_description: expect.stringContaining("names another client_id"),
    });
  });

  it("refuses a document that is not JSON, too big, not found, or asks for a secret", async () => {
    const html = publish(
      "/clients/page.html",
      (url) => JSON.stringify({ client_id: url, redirect_uris: [REDIRECT] }),
      "text/html",
    );
    await expectRefusalPage(fixture, html, /is text\/html, not JSON/);
    const big = publish("/clients/big.json", (url) => ({
      client_id: url,
      redirect_uris: [REDIRECT],
      client_name: "x".repeat(MAX_DOCUMENT_BYTES),
    }));
    await expectRefusalPage(fixture, big, new RegExp(`larger than ${MAX_DOCUMENT_BYTES} bytes`));
    const garbled = publish("/clients/garbled.json", () => "{ not json");
    await expectRefusalPage(fixture, garbled, /is not valid JSON/);
    await expectRefusalPage(fixture, `${site.origin}/clients/missing.json`, /answered 404, not 200/);
    // A refusal is remembered briefly: asking again fetches nothing.
    await expectRefusalPage(fixture, `${site.origin}/clients/missing.json`, /answered 404, not 200/);
    expect(site.hits.get("/clients/missing.json")).toBe(1);
    const secret = publish("/clients/secret.json", (url) => ({
      client_id: url,
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: "client_secret_basic",
    }));
    await expectRefusalPage(fixture, secret, /asks for a client secret/);
  });

  it("refuses a client_id URL the draft does not allow, without fetching it", async () => {
    const before = site.hits.size;
    await expectRefusalPage(fixture, `${site.origin}/`, /must have a path/);
    await expectRefusalPage(fixture, `${site.origin}/a/../clients/desktop.json`, /\. or \.\. path segments/);
    await expectRefusalPage(fixture, `https://user:pw@127.0.0.1/clients/x.json`, /user name or password/);
    expect(site.hits.size).toBe(before);
  });

  it("refuses a document on a private address when the operator allowed none", async () => {
    const documentUrl = publish("/clients/private.json", (url) => ({
      client_id: url,
      redirect_uris: [REDIRECT],
    }));
    const hits = site.hits.get("/clients/private.json") ?? 0;
    await expectRefusalPage(unallowed, documentUrl, /could not be fetched: .*loopback/);
    expect(site.hits.get("/clients/private.json") ?? 0).toBe(hits);
    // Allowed, but over TLS with a certificate the egress client does not trust: refused as well.
    const untrusting = createEgressClient({ policy: { allowAddressClasses: ["loopback"] } });
    const strict = await startFixture({ oauth: { clientMetadataFetcher: untrusting } });
    try {
      await expectRefusalPage(strict, documentUrl, /could not be fetched/);
    } finally {
      await strict.close();
      await untrusting.close();
    }
  });
});
