import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataOf, egressWith, errorOf, startEmailHarness } from "../fake/email-harness.js";
import { SMTP_PASSWORD, SMTP_USER, type SmtpFake, startSmtpFake, TEST_CA } from "../fake/smtp-fake.js";
import { smtpConnectionOptions } from "./smtp-provider.js";

const relay = { host: "smtp.acme.example", port: 587, address: "93.184.216.34" };
const LOGIN = `${SMTP_USER}:${SMTP_PASSWORD}`;
const message = {
  to: [{ address: "ann@example.com" }],
  bcc: [{ address: "audit@acme.example" }],
  subject: "The Q3 numbers",
  text: "Hi Ann,\nthe numbers are in.\n",
};

describe("the SMTP connection's options", () => {
  it("connect to the address egress checked, naming the host only for TLS, trusting egress's extra CAs", () => {
    const options = smtpConnectionOptions(
      { ...relay, ca: ["CA"] },
      { secure: "starttls" },
      "acme.example",
      5_000,
    );
    expect(options).toMatchObject({
      host: "93.184.216.34",
      port: 587,
      servername: "smtp.acme.example",
      tls: { servername: "smtp.acme.example", ca: ["CA"], minVersion: "TLSv1.2", rejectUnauthorized: true },
      secure: false,
      requireTLS: true,
      ignoreTLS: false,
      name: "acme.example",
      connectionTimeout: 4_000,
    });
  });

  it("uses implicit TLS for tls, plain text only for none, no server name for an address, and bounds each step", () => {
    const implicit = smtpConnectionOptions(relay, { secure: "tls" }, "a.example", 60_000);
    expect(implicit).toMatchObject({ secure: true, requireTLS: false, socketTimeout: 30_000 });
    expect(implicit.tls?.ca).toBeUndefined();
    const plain = smtpConnectionOptions(
      { host: "10.0.0.25", port: 25, address: "10.0.0.25" },
      { secure: "none" },
      "a.example",
      1_000,
    );
    expect(plain).toMatchObject({ secure: false, requireTLS: false, ignoreTLS: true });
    expect(plain.servername).toBeUndefined();
  });
});

describe("a relay that took the whole message and never answered", () => {
  it("is an unknown outcome, never retryable, recorded as unknown and shown so by email_get_status", async () => {
    const smtp = await startSmtpFake();
    const email = await startEmailHarness(
      {
        provider: "smtp",
        smtp: { host: smtp.host, port: smtp.port, secure: "none", credentialRef: "relay" },
      },
      { relay: LOGIN },
    );
    try {
      smtp.next("hang");
      const error = errorOf(await email.call("email_send", message, { timeoutMs: 2_000 }));
      expect(smtp.received.at(-1)?.bytes.toString()).toContain("the numbers are in.");
      expect(error).toMatchObject({ retryable: false, details: { outcome: "unknown" } });
      expect(error.message).toMatch(/received the whole message .* may have been sent — check/);
      expect(error.message).not.toMatch(/not sent/);
      const [latest] = dataOf<{ messages: { sendId: string; status: string }[] }>(
        await email.seam.call(email.context(), "email_list_sent", { limit: 1 }),
      ).messages;
      expect(latest?.status).toBe("unknown");
      const status = await email.seam.call(email.context(), "email_get_status", { sendId: latest?.sendId });
      if (!status.ok) throw new Error(status.error.message);
      expect(status.content).toContain("Outcome unknown");
      expect(status.content).not.toContain("Not sent");
    } finally {
      await email.close();
      await smtp.close();
    }
  });
});

describe("TLS to a relay named relay.test, pinned to the address egress resolved", () => {
  let starttls: SmtpFake;
  let implicit: SmtpFake;
  beforeAll(async () => {
    [starttls, implicit] = await Promise.all([
      startSmtpFake({ tls: "starttls" }),
      startSmtpFake({ tls: "implicit" }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([starttls.close(), implicit.close()]);
  });

  const sendThrough = async (
    fake: SmtpFake,
    secure: "starttls" | "tls",
    name: string,
    trusted: readonly string[] | undefined,
  ) => {
    // relay.test resolves through egress's resolver alone: the system has no answer for it, so a send that
    // works proves the connection went to the checked address with no second lookup.
    const egress = egressWith({ [name]: "127.0.0.1" }, trusted);
    const email = await startEmailHarness(
      { provider: "smtp", smtp: { host: name, port: fake.port, secure, credentialRef: "relay" } },
      { relay: LOGIN },
      { egress },
    );
    try {
      return await email.call("email_send", message);
    } finally {
      await email.close();
      await egress.close();
    }
  };

  it("sends over STARTTLS and over implicit TLS when the certificate names the host and its CA is trusted", async () => {
    const [sentBefore, implicitBefore] = [starttls.received.length, implicit.received.length];
    expect(
      dataOf<{ status: string }>(await sendThrough(starttls, "starttls", "relay.test", [TEST_CA])).status,
    ).toBe("sent");
    expect(
      dataOf<{ status: string }>(await sendThrough(implicit, "tls", "relay.test", [TEST_CA])).status,
    ).toBe("sent");
    expect([starttls.received.length, implicit.received.length]).toEqual([
      sentBefore + 1,
      implicitBefore + 1,
    ]);
    expect(implicit.received.at(-1)?.user).toBe(SMTP_USER);
  });

  it("refuses, as a final TLS failure, a certificate for another name and one whose CA is not trusted", async () => {
    const before = [starttls.received.length, implicit.received.length];
    for (const [fake, secure, name, trusted] of [
      [starttls, "starttls", "other.test", [TEST_CA]],
      [implicit, "tls", "other.test", [TEST_CA]],
      [implicit, "tls", "relay.test", undefined],
    ] as const) {
      const error = errorOf(await sendThrough(fake, secure, name, trusted));
      expect(error, `${secure} ${name}`).toMatchObject({ code: "upstream_error", retryable: false });
      expect(error.message).toMatch(
        /did not secure the connection with TLS \(TLS refused: .+\); the message was not sent/,
      );
    }
    expect([starttls.received.length, implicit.received.length]).toEqual(before);
  });
});
