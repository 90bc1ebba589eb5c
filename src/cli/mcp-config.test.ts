import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadMcpConfig } from "./mcp-config.js";

const owner = { tenant: "acme", principal: "operator" };

function configWith(server: Record<string, unknown>): string {
  const path = join(mkdtempSync(join(tmpdir(), "toolreg-mcp-config-")), "mcp.json");
  writeFileSync(
    path,
    JSON.stringify({ servers: [{ name: "tickets", url: "https://mcp.example.com/mcp", ...server }] }),
  );
  return path;
}

describe("an --mcp-config server with oauth", () => {
  it("is the tenant's connection, consented to by --principal unless the entry names others", () => {
    const [plain] = loadMcpConfig(configWith({ oauth: {} }), owner);
    expect(plain?.transport).toMatchObject({
      kind: "http",
      oauth: { tenantId: "acme", principalId: "operator" },
    });
    const [named] = loadMcpConfig(
      configWith({
        oauth: {
          tenant: "beta",
          principal: "alice",
          clientId: "toolreg",
          clientSecret: "env:TICKETS_SECRET",
          clientMetadataUrl: "https://toolreg.example.com/client.json",
          scopes: ["tickets:read"],
          tokenEndpointAuthMethod: "client_secret_basic",
        },
      }),
      owner,
    );
    expect(named?.transport).toMatchObject({
      oauth: {
        tenantId: "beta",
        principalId: "alice",
        clientId: "toolreg",
        clientSecretRef: "env:TICKETS_SECRET",
        clientMetadataUrl: "https://toolreg.example.com/client.json",
        scopes: ["tickets:read"],
        tokenEndpointAuthMethod: "client_secret_basic",
      },
    });
  });

  it("says whose token a call carries: the tenant's by default, or the deployment's, or each user's", () => {
    const [plain] = loadMcpConfig(configWith({ oauth: {} }), owner);
    expect(plain?.transport).toMatchObject({ oauth: { per: undefined } });
    for (const per of ["tenant", "deployment", "user"]) {
      const [server] = loadMcpConfig(configWith({ oauth: { per } }), owner);
      expect(server?.transport).toMatchObject({
        oauth: { per, tenantId: "acme", principalId: "operator" },
      });
    }
    expect(() => loadMcpConfig(configWith({ oauth: { per: "principal" } }), owner)).toThrow(/servers\.0/);
  });

  it("refuses a static credential beside it, a secret without its client, and a metadata URL that is not https", () => {
    const credential = { header: "authorization", credentialRef: "env:T" };
    expect(() => loadMcpConfig(configWith({ credential, oauth: {} }), owner)).toThrow(
      /both a credential and oauth/,
    );
    expect(() => loadMcpConfig(configWith({ oauth: { clientSecret: "env:S" } }), owner)).toThrow(
      /clientSecret goes with the clientId/,
    );
    expect(() =>
      loadMcpConfig(configWith({ oauth: { clientMetadataUrl: "http://toolreg.example.com/c.json" } }), owner),
    ).toThrow(/oauth.clientMetadataUrl/);
    expect(() =>
      loadMcpConfig(configWith({ oauth: { tokenEndpointAuthMethod: "private_key_jwt" } }), owner),
    ).toThrow(/servers\.0/);
  });
});
