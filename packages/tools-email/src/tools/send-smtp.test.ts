import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataOf, type EmailHarness, errorOf, FROM, startEmailHarness } from "../fake/email-harness.js";
import { SMTP_PASSWORD, SMTP_USER, type SmtpFake, startSmtpFake } from "../fake/smtp-fake.js";

const LOGIN = `${SMTP_USER}:${SMTP_PASSWORD}`;

const message = {
  to: [{ address: "ann@example.com", name: "Ann Müller" }],
  cc: [{ address: "bob@example.org" }],
  bcc: [{ address: "audit@acme.example" }],
  subject: "Grüße — the Q3 numbers",
  text: "Hi Ann,\nthe numbers are in.\n",
  html: "<p>Hi Ann,</p><p>the numbers are in.</p>",
};

interface Sent {
  sendId: string;
  sha256: string;
  status: string;
  accepted: string[];
  refused: { address: string; code: number | null; reply: string }[];
  providerMessageId: string | null;
}

let smtp: SmtpFake;
let email: EmailHarness;
beforeAll(async () => {
  smtp = await startSmtpFake();
  email = await startEmailHarness(
    { provider: "smtp", smtp: { host: smtp.host, port: smtp.port, secure: "none", credentialRef: "relay" } },
    { relay: LOGIN },
  );
});
afterAll(async () => {
  await email.close();
  await smtp.close();
});

describe("email_send over SMTP", () => {
  it("parks for approval and connects to nobody until a person approves", async () => {
    const before = smtp.connections;
    const parked = await email.seam.call(email.context(), "email_send", message);
    expect(parked.ok).toBe(false);
    expect(errorOf(parked).code).toBe("approval_required");
    expect(smtp.connections).toBe(before);
  });

  it("transmits the previewed bytes, byte for byte, with bcc in RCPT TO and in no header, after logging in", async () => {
    const preview = dataOf<{ mime: string; sha256: string }>(
      await email.seam.call(email.context(), "email_compose_preview", message),
    );
    const sent = dataOf<Sent>(await email.call("email_send", message));
    const received = smtp.received.at(-1);
    expect(received?.bytes.equals(Buffer.from(preview.mime, "utf8"))).toBe(true);
    expect(sent.sha256).toBe(preview.sha256);
    expect(received).toMatchObject({
      from: FROM.address,
      to: ["ann@example.com", "bob@example.org", "audit@acme.example"],
      user: SMTP_USER,
    });
    expect(received?.bytes.toString()).not.toMatch(/^(bcc|date|message-id):/im);
    expect(received?.bytes.toString()).not.toContain("audit@acme.example");
    expect(sent).toMatchObject({
      status: "sent",
      accepted: ["ann@example.com", "bob@example.org", "audit@acme.example"],
      refused: [],
      providerMessageId: expect.stringMatching(/^Q\d+ABC$/),
    });
    expect(sent.sendId).toMatch(/^k-[0-9a-f]{40}$/);
  });

  it("says exactly who was refused at RCPT when some were, with their codes, and calls it partial", async () => {
    const result = await email.call("email_send", {
      ...message,
      to: [{ address: "ann@example.com" }, { address: "nobody@example.com" }],
      cc: [{ address: "busy@example.org" }],
      bcc: undefined,
    });
    const sent = dataOf<Sent>(result);
    expect(sent.status).toBe("partial");
    expect(sent.accepted).toEqual(["ann@example.com"]);
    expect(sent.refused).toEqual([
      { address: "nobody@example.com", code: 550, reply: "550 5.1.1 Mailbox unavailable" },
      { address: "busy@example.org", code: 450, reply: "450 4.2.1 Mailbox busy, try again later" },
    ]);
    expect(smtp.received.at(-1)?.to).toEqual(["ann@example.com"]);
    if (!result.ok) return;
    expect(result.content).toMatch(
      /^Partly sent .* accepted for ann@example.com; NOT sent to nobody@example.com \(550 5\.1\.1 Mailbox unavailable\); busy@example.org \(450 /m,
    );
    expect(result.content).toContain("send it a second time");
  });

  it("never reports a send when every recipient was refused: permanent is final, any transient one retryable", async () => {
    const before = smtp.received.length;
    const permanent = errorOf(
      await email.call("email_send", {
        ...message,
        to: [{ address: "nobody@example.com" }],
        cc: undefined,
        bcc: undefined,
      }),
    );
    expect(permanent).toMatchObject({ code: "upstream_error", retryable: false });
    expect(permanent.message).toMatch(
      /refused every recipient, so the message was not sent: nobody@example.com \(550/,
    );
    const transient = errorOf(
      await email.call("email_send", {
        ...message,
        to: [{ address: "nobody@example.com" }, { address: "busy@example.com" }],
        cc: undefined,
        bcc: undefined,
      }),
    );
    expect(transient).toMatchObject({ code: "upstream_error", retryable: true });
    expect(smtp.received.length).toBe(before);
  });

  it("reads a 451 after DATA as retryable and a 550 as final, neither as a send", async () => {
    smtp.next("defer");
    const deferred = errorOf(await email.call("email_send", message));
    expect(deferred).toMatchObject({ code: "upstream_error", retryable: true, details: { replyCode: 451 } });
    expect(deferred.message).toMatch(/temporary refusal \(451 4\.7\.1 Greylisted.*not sent; try again later/);
    smtp.next("reject");
    const rejected = errorOf(await email.call("email_send", message));
    expect(rejected).toMatchObject({ code: "upstream_error", retryable: false, details: { replyCode: 550 } });
    expect(rejected.message).toMatch(
      /refused the message at DATA permanently|refused the message.*permanently/,
    );
  });

  it("previews with bcc listed apart and said to be in no header; the status of an SMTP send is the relay's answer", async () => {
    const preview = await email.seam.call(email.context(), "email_compose_preview", message);
    const data = dataOf<{ envelope: { bcc: string[] }; bccInHeaders: boolean }>(preview);
    expect(data).toMatchObject({ envelope: { bcc: ["audit@acme.example"] }, bccInHeaders: false });
    if (preview.ok) {
      expect(preview.content).toContain("Bcc (envelope only): audit@acme.example");
      expect(preview.content).toContain("Bcc recipients are in the envelope only, not in any header");
      expect(preview.content).toContain("nothing was sent");
    }
    const sent = dataOf<Sent>(await email.call("email_send", message));
    const status = await email.seam.call(email.context(), "email_get_status", { sendId: sent.sendId });
    const report = dataOf<{ status: string; reply: string; delivery: { known: boolean; note: string } }>(
      status,
    );
    expect(report).toMatchObject({
      status: "sent",
      reply: expect.stringMatching(/^250 2\.0\.0 Ok: queued as/),
    });
    expect(report.delivery.known).toBe(false);
    expect(report.delivery.note).toMatch(/SMTP gives no delivery status/);
  });

  it("records each attempt, the refused ones as failed", async () => {
    const page = await email.records.list({
      toolkit: "email",
      tenantId: "t1",
      principalId: "p1",
      limit: 100,
    });
    const statuses = page.records.map((record) => (record.data as { status: string }).status);
    expect(statuses).toContain("sent");
    expect(statuses).toContain("partial");
    expect(statuses).toContain("failed");
    expect(statuses).not.toContain("sending");
  });

  it("refuses 21 recipients and a header injection before any connection", async () => {
    const before = smtp.connections;
    const many = Array.from({ length: 21 }, (_, index) => ({ address: `p${index}@example.com` }));
    for (const input of [
      { ...message, to: many, cc: undefined, bcc: undefined },
      { ...message, to: many.slice(0, 10), cc: many.slice(10, 15), bcc: many.slice(15) },
      { ...message, subject: "Hi\r\nBcc: everyone@example.com" },
      { ...message, to: [{ address: "ann@example.com\r\nRCPT TO:<x@evil.example>" }] },
      { ...message, from: { address: "ceo@acme.example" } },
    ]) {
      const result = await email.call("email_send", input);
      expect(errorOf(result).code, JSON.stringify(input).slice(0, 80)).toBe("invalid_input");
    }
    expect(smtp.connections).toBe(before);
  });
});

describe("email_send over SMTP: the relay's login", () => {
  it("turns a refused login (535) into auth_required naming the credential, with no secret in the text", async () => {
    const wrong = await startEmailHarness(
      {
        provider: "smtp",
        smtp: { host: smtp.host, port: smtp.port, secure: "none", credentialRef: "relay" },
      },
      { relay: `${SMTP_USER}:not-the-password` },
    );
    try {
      const error = errorOf(await wrong.call("email_send", message));
      expect(error).toMatchObject({ code: "auth_required", retryable: false });
      expect(error.message).toContain('credential "relay"');
      expect(error.message).toContain("535");
      expect(JSON.stringify(error)).not.toContain("not-the-password");
      const missing = errorOf(
        await wrong.call("email_send", message, {
          credentials: { resolve: () => Promise.reject(new Error("none")) },
        }),
      );
      expect(missing.code).toBe("auth_required");
      const unpaired = errorOf(
        await wrong.call("email_send", message, { credentials: { resolve: async () => "just-a-token" } }),
      );
      expect(unpaired.message).toContain("not a user:password pair");
      expect(JSON.stringify(unpaired)).not.toContain("just-a-token");
    } finally {
      await wrong.close();
    }
  });

  it("requires STARTTLS by default and sends nothing to a relay that does not offer it", async () => {
    const plain = await startEmailHarness(
      { provider: "smtp", smtp: { host: smtp.host, port: smtp.port, credentialRef: "relay" } },
      { relay: LOGIN },
    );
    try {
      const before = smtp.received.length;
      const error = errorOf(await plain.call("email_send", message));
      expect(error).toMatchObject({ code: "upstream_error", retryable: false });
      expect(error.message).toMatch(/did not secure the connection with TLS/);
      expect(smtp.received.length).toBe(before);
    } finally {
      await plain.close();
    }
  });

  it("connects only where the egress policy allows: a relay on loopback is refused by the default policy", async () => {
    const { emailToolkit } = await import("../toolkit.js");
    const { createToolkitHost } = await import("toolreg/toolkit");
    const { createMemoryToolkitRecordStore, createTestHarness } = await import("toolreg/test");
    const host = createToolkitHost({ records: createMemoryToolkitRecordStore() });
    const tools = await emailToolkit.build(
      { provider: "smtp", from: FROM, smtp: { host: smtp.host, port: smtp.port, secure: "none" } },
      host,
    );
    const harness = createTestHarness(tools, { clock: Date.now });
    const caller = harness.context();
    const parked = await harness.seam.call(caller, "email_send", message);
    const { approvalIdOf } = await import("toolreg");
    const approvalId = approvalIdOf(parked) ?? "";
    await harness.seam.approve({ tenantId: caller.tenantId, approvalId, by: "reviewer" });
    const before = smtp.connections;
    const error = errorOf(await harness.seam.resume(caller, approvalId));
    expect(error).toMatchObject({ code: "egress_refused", details: { rule: "loopback" } });
    expect(smtp.connections).toBe(before);
    await host.close();
  });
});
