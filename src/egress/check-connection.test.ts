import { rootCertificates } from "node:tls";
import { describe, expect, it } from "vitest";
import type { ResolvedAddress, Resolver } from "./dns-resolver.js";
import { EgressClient } from "./egress-client.js";

const scripted =
  (answers: Record<string, string[]>): Resolver =>
  async (host) =>
    (answers[host] ?? []).map(
      (address): ResolvedAddress => ({ address, family: address.includes(":") ? 6 : 4 }),
    );

describe("checkConnection, for a connection that is not HTTP (an SMTP relay)", () => {
  const resolver = scripted({
    "smtp.mail.example": ["93.184.216.34"],
    "relay.corp.example": ["10.0.0.25"],
    "rebind.example": ["93.184.216.34", "169.254.169.254"],
  });

  it("answers the one address to connect to, the host as matched and the port", async () => {
    const egress = new EgressClient({ resolver });
    await expect(egress.checkConnection("SMTP.Mail.Example.", 587)).resolves.toEqual({
      host: "smtp.mail.example",
      port: 587,
      address: "93.184.216.34",
      family: 4,
    });
    await egress.close();
  });

  it("hands on the extra authorities the client trusts, beside Node's own, for the caller's TLS", async () => {
    const extra = "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    const trusting = new EgressClient({ resolver, extraCertificates: [extra] });
    const checked = await trusting.checkConnection("smtp.mail.example", 465);
    expect(checked.ca?.at(-1)).toBe(extra);
    expect(checked.ca?.length).toBe(rootCertificates.length + 1);
    const plain = new EgressClient({ resolver });
    expect((await plain.checkConnection("smtp.mail.example", 465)).ca).toBeUndefined();
    await Promise.all([trusting.close(), plain.close()]);
  });

  it("refuses a private address, a name resolving to one, and a hex form of loopback, as a request would be", async () => {
    const egress = new EgressClient({ resolver });
    await expect(egress.checkConnection("relay.corp.example", 25)).rejects.toMatchObject({
      envelopeCode: "egress_refused",
      details: { rule: "private", url: "relay.corp.example:25", address: "10.0.0.25" },
    });
    await expect(egress.checkConnection("rebind.example", 465)).rejects.toMatchObject({
      details: { rule: "metadata" },
    });
    await expect(egress.checkConnection("0x7f.1", 25)).rejects.toMatchObject({
      details: { rule: "loopback" },
    });
    await egress.close();
  });

  it("refuses a denied host and one outside the allow list before resolving it", async () => {
    let asked = 0;
    const counting: Resolver = async (host) => {
      asked++;
      return resolver(host);
    };
    const denying = new EgressClient({ resolver: counting, policy: { denyHosts: ["*.mail.example"] } });
    await expect(denying.checkConnection("smtp.mail.example", 587)).rejects.toMatchObject({
      details: { rule: "host_denied" },
    });
    const allowing = new EgressClient({ resolver: counting, policy: { allowHosts: ["smtp.other.example"] } });
    await expect(allowing.checkConnection("smtp.mail.example", 587)).rejects.toMatchObject({
      details: { rule: "host_not_allowed" },
    });
    expect(asked).toBe(0);
    await Promise.all([denying.close(), allowing.close()]);
  });

  it("refuses what is not a host and a port", async () => {
    const egress = new EgressClient({ resolver });
    for (const [host, port] of [
      ["smtp.mail.example/path", 25],
      ["user@smtp.mail.example", 25],
      ["smtp.mail.example", 0],
      ["smtp.mail.example", 65_536],
      ["smtp.mail.example", 25.5],
    ] as const) {
      await expect(egress.checkConnection(host, port), `${host}:${port}`).rejects.toMatchObject({
        envelopeCode: "invalid_input",
      });
    }
    await egress.close();
  });
});
