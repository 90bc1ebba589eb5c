import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { CredentialExchange } from "../../egress/egress-policy.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { credentialNeedOf } from "../../seam/consent/credential-need.js";
import { defineToolkit } from "./define-toolkit.js";
import { createToolkitHost } from "./toolkit-host.js";

const SECRET = "-----BEGIN PRIVATE KEY-----\nvery-secret\n-----END PRIVATE KEY-----";
const caller = { tenantId: "t", principalId: "p", credentials: { resolve: async () => SECRET } };

describe("a credential exchanged before it is sent", () => {
  let server: Server;
  let url = "";
  const seen: (string | undefined)[] = [];
  beforeAll(async () => {
    server = createServer((request, response) => {
      seen.push(request.headers.authorization);
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise((resolve) => server.close(resolve)));

  const egressWith = (exchange: CredentialExchange) => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    const egress = host.egress({
      hosts: ["127.0.0.1"],
      credential: { header: "authorization", scheme: "Bearer", credentialRef: "env:VENDOR_KEY", exchange },
    });
    return { host, egress };
  };

  it("sends what the exchange made of the secret, for the caller's scope, and never the secret", async () => {
    const asked: unknown[] = [];
    const { host, egress } = egressWith({
      mint: async (secret, scope) => {
        asked.push({ secret, scope });
        return `token-for-${scope.tenantId}`;
      },
    });
    expect((await egress.request(url, { caller })).status).toBe(200);
    expect(seen.at(-1)).toBe("Bearer token-for-t");
    // A PEM's line breaks would be refused in a header: the check applies to what is sent, not the secret.
    expect(asked).toEqual([{ secret: SECRET, scope: { tenantId: "t", principalId: "p" } }]);
    await host.close();
  });

  it("keeps the exchange's own ToolFailure, and words any other error without the secret", async () => {
    const worded = egressWith({
      mint: async () => {
        throw new ToolFailure("auth_required", "the vendor refused the key named env:VENDOR_KEY");
      },
    });
    await expect(worded.egress.request(url, { caller })).rejects.toMatchObject({
      envelopeCode: "auth_required",
      message: "the vendor refused the key named env:VENDOR_KEY",
    });
    const leaky = egressWith({
      mint: async (secret) => {
        throw new Error(`cannot parse ${secret}`);
      },
    });
    const failure = await leaky.egress.request(url, { caller }).catch((error: unknown) => error);
    expect(failure).toMatchObject({
      envelopeCode: "egress_refused",
      details: { rule: "credential_unavailable" },
      message: expect.stringContaining('"env:VENDOR_KEY" for 127.0.0.1 could not be exchanged'),
    });
    expect(JSON.stringify(failure)).not.toContain("very-secret");
    expect((failure as Error).message).not.toContain("very-secret");
    await worded.host.close();
    await leaky.host.close();
  });

  it("refuses an exchanged value that cannot go in a header", async () => {
    const { host, egress } = egressWith({ mint: async () => "two\nlines" });
    const before = seen.length;
    await expect(egress.request(url, { caller })).rejects.toMatchObject({
      details: { rule: "credential_unavailable" },
    });
    expect(seen.length).toBe(before);
    await host.close();
  });
});

describe("a configuration that cannot ask a user for consent", () => {
  const vendor = defineToolkit({
    id: "vendor",
    version: "1.0.0",
    package: "vendor-toolkit",
    description: "A vendor reached as a user, or as the tenant's installation.",
    config: z.strictObject({ installation: z.boolean().default(false) }),
    auth: {
      kind: "token-or-oauth",
      header: "authorization",
      scheme: "Bearer",
      oauth: { authorizeUrl: "https://vendor.example/authorize", tokenUrl: "https://vendor.example/token" },
    },
    oauthEndpoints: ({ installation }) =>
      installation
        ? undefined
        : { authorizeUrl: "https://vendor.example/authorize", tokenUrl: "https://vendor.example/token" },
    tools: [
      {
        name: "vendor_ping",
        description: "Pings the vendor.",
        category: "general",
        effect: "read",
        input: z.object({}),
        run: () => "pong",
      },
    ],
    bind: (_config, host) => {
      host.egress({
        hosts: ["vendor.example"],
        credential: { header: "authorization", scheme: "Bearer", credentialRef: "env:VENDOR_KEY" },
      });
      return {};
    },
  });

  it("builds tools whose credential an operator configures, with no consent to ask", async () => {
    const host = createToolkitHost();
    const [installed] = await vendor.build({ installation: true }, host);
    expect(credentialNeedOf(installed ?? {})).toMatchObject({
      credentialRef: "env:VENDOR_KEY",
      auth: "token",
      oauth: undefined,
    });
    const [asUser] = await vendor.build({}, host);
    expect(credentialNeedOf(asUser ?? {})).toMatchObject({ auth: "token-or-oauth" });
    expect(credentialNeedOf(asUser ?? {})?.oauth).toBeDefined();
    await host.close();
  });
});
