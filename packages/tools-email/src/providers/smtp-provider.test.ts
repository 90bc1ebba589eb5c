import { describe, expect, it } from "vitest";
import { smtpTransportOptions } from "./smtp-provider.js";

const relay = { host: "smtp.acme.example", port: 587, address: "93.184.216.34" };

describe("the SMTP connection's options", () => {
  it("connect to the address egress checked, naming the host only for TLS", () => {
    const options = smtpTransportOptions(
      relay,
      { secure: "starttls" },
      "acme.example",
      { user: "u", pass: "p" },
      5_000,
    );
    expect(options).toMatchObject({
      host: "93.184.216.34",
      port: 587,
      servername: "smtp.acme.example",
      tls: { servername: "smtp.acme.example", minVersion: "TLSv1.2", rejectUnauthorized: true },
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      name: "acme.example",
      auth: { user: "u", pass: "p" },
      connectionTimeout: 5_000,
      disableFileAccess: true,
      disableUrlAccess: true,
    });
  });

  it("uses implicit TLS for tls, plain text only for none, no server name for an address, and bounds each step", () => {
    expect(smtpTransportOptions(relay, { secure: "tls" }, "a.example", undefined, 60_000)).toMatchObject({
      secure: true,
      requireTLS: false,
      socketTimeout: 30_000,
    });
    const plain = smtpTransportOptions(
      { host: "10.0.0.25", port: 25, address: "10.0.0.25" },
      { secure: "none" },
      "a.example",
      undefined,
      1_000,
    );
    expect(plain).toMatchObject({ secure: false, requireTLS: false, ignoreTLS: true });
    expect(plain.servername).toBeUndefined();
    expect(plain.auth).toBeUndefined();
  });
});
