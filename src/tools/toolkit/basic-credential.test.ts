import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BasicCredentialOptions, basicCredential } from "./basic-credential.js";
import { createToolkitHost } from "./toolkit-host.js";

describe("a credential sent as HTTP Basic", () => {
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

  const send = async (secret: string, options?: BasicCredentialOptions) => {
    const host = createToolkitHost({ egressPolicy: { allowAddressClasses: ["loopback"] } });
    const egress = host.egress({
      hosts: ["127.0.0.1"],
      credential: { header: "authorization", credentialRef: "vendor", exchange: basicCredential(options) },
    });
    const caller = { tenantId: "t", principalId: "p", credentials: { resolve: async () => secret } };
    try {
      return await egress.request(url, { caller });
    } finally {
      await host.close();
    }
  };

  it("encodes a stored user:password pair, a colon in the password kept (RFC 7617)", async () => {
    await send("ann@example.com:tok:en");
    expect(seen.at(-1)).toBe(`Basic ${Buffer.from("ann@example.com:tok:en").toString("base64")}`);
    await send("api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0", { otherwise: "refuse" });
    expect(seen.at(-1)).toBe(
      `Basic ${Buffer.from("api:key-3ax6xnjp29jd6fds4gc373sgvjxteol0").toString("base64")}`,
    );
  });

  it("sends a secret that is no pair as a Bearer token only when told to", async () => {
    const before = seen.length;
    await send("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln", { otherwise: "bearer" });
    expect(seen.at(-1)).toBe("Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbm4ifQ.c2ln");
    await expect(send("just-a-token", { describe: "the key as api:KEY" })).rejects.toMatchObject({
      envelopeCode: "auth_required",
      message: "the stored credential is not a user:password pair; an operator must store the key as api:KEY",
    });
    // An empty user is not a pair; nothing reached the server for the refused one.
    await expect(send(":secret")).rejects.toMatchObject({ envelopeCode: "auth_required" });
    expect(seen.length).toBe(before + 1);
  });
});
