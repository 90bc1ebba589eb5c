import type { VendorFake } from "toolreg/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dataOf, type EmailHarness, errorOf, startEmailHarness } from "../fake/email-harness.js";
import {
  MAILGUN_DOMAIN,
  MAILGUN_KEY,
  MAILGUN_MESSAGE_ID,
  type MailgunScenario,
  startMailgunFake,
} from "../fake/mailgun-fake.js";
import { type SmtpFake, startSmtpFake } from "../fake/smtp-fake.js";
import { mailgunFailure } from "../providers/mailgun-provider.js";

const message = {
  to: [{ address: "ann@example.com", name: "Ann Müller" }],
  bcc: [{ address: "nobody@example.org" }],
  subject: "Grüße — the Q3 numbers",
  text: "Hi Ann,\nthe numbers are in.\n",
};

let mailgun: VendorFake<MailgunScenario>;
let email: EmailHarness;
beforeAll(async () => {
  mailgun = await startMailgunFake();
  email = await startEmailHarness(
    { provider: "mailgun", mailgun: { domain: MAILGUN_DOMAIN, baseUrl: mailgun.url } },
    { mailgun: `api:${MAILGUN_KEY}` },
  );
});
afterAll(async () => {
  await email.close();
  await mailgun.close();
});

const sends = () => mailgun.requests.filter((request) => request.path.endsWith("/messages.mime"));

/** The multipart form Mailgun received, read back with the platform's own parser. */
async function formOf(request: { headers: Record<string, unknown>; body: string }) {
  return new Response(request.body, {
    headers: { "content-type": String(request.headers["content-type"]) },
  }).formData();
}

describe("email_send through Mailgun's messages.mime", () => {
  it("POSTs the composed MIME as the message file and every recipient as `to`, with HTTP Basic api:KEY", async () => {
    const preview = dataOf<{ mime: string; sha256: string }>(
      await email.seam.call(email.context(), "email_compose_preview", message),
    );
    const result = await email.call("email_send", message);
    const sent = dataOf<{ sha256: string; providerMessageId: string; status: string; accepted: string[] }>(
      result,
    );
    const request = sends().at(-1);
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe(`/v3/${MAILGUN_DOMAIN}/messages.mime`);
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`api:${MAILGUN_KEY}`).toString("base64")}`,
    );
    const form = await formOf(request as never);
    expect(form.getAll("to")).toEqual(["ann@example.com", "nobody@example.org"]);
    const file = form.get("message") as File;
    expect(file.name).toBe("message.mime");
    expect(Buffer.from(await file.arrayBuffer()).toString("utf8")).toBe(preview.mime);
    expect(sent).toMatchObject({
      sha256: preview.sha256,
      status: "sent",
      providerMessageId: MAILGUN_MESSAGE_ID,
      accepted: ["ann@example.com", "nobody@example.org"],
    });
    if (result.ok) expect(result.content).toContain("Queued. Thank you.");
  });

  it("sends the very bytes SMTP sends for the same message", async () => {
    const smtp: SmtpFake = await startSmtpFake();
    const relay = await startEmailHarness(
      {
        provider: "smtp",
        smtp: { host: smtp.host, port: smtp.port, secure: "none", credentialRef: "relay" },
      },
      { relay: "relay-user:s3cret:with-colon" },
    );
    try {
      dataOf(await relay.call("email_send", message));
      dataOf(await email.call("email_send", message));
      const file = (await formOf(sends().at(-1) as never)).get("message") as File;
      expect(
        Buffer.from(await file.arrayBuffer()).equals(smtp.received.at(-1)?.bytes ?? Buffer.alloc(0)),
      ).toBe(true);
    } finally {
      await relay.close();
      await smtp.close();
    }
  });

  it("reads Mailgun's refusals: 400 final, 401 and 403 the credential, 429 with and without Retry-After", async () => {
    mailgun.next("bad-address");
    const bad = errorOf(await email.call("email_send", message));
    expect(bad).toMatchObject({ code: "upstream_error", retryable: false });
    expect(bad.message).toContain("'to' parameter is not a valid address");
    expect(bad.message).toContain("nothing was sent");

    const refused = errorOf(
      await email.call("email_send", message, { credentials: { resolve: async () => "api:wrong" } }),
    );
    expect(refused.code).toBe("auth_required");
    expect(refused.message).toContain('"mailgun"');
    expect(JSON.stringify(refused)).not.toContain("api:wrong");

    mailgun.next("forbidden");
    const forbidden = errorOf(await email.call("email_send", message));
    expect(forbidden).toMatchObject({ code: "upstream_error", retryable: false, details: { status: 403 } });
    expect(forbidden.message).toContain('api:KEY in the credential "mailgun"');

    mailgun.next("rate-limited");
    const limited = errorOf(await email.call("email_send", message));
    expect(limited).toMatchObject({ code: "upstream_rate_limited", retryable: true, retryAfterMs: 120_000 });
    mailgun.next("rate-limited-retry-after");
    expect(errorOf(await email.call("email_send", message))).toMatchObject({ retryAfterMs: 7_000 });
  });

  it("calls a 500, a timeout after the POST and an unreadable 200 unknown, never retryable, and records them so", async () => {
    const outcomes = [];
    for (const scenario of ["server-error", "slow", "garbled"] as const) {
      mailgun.next(scenario);
      const error = errorOf(await email.call("email_send", message, { timeoutMs: 1_000 }));
      expect(error, scenario).toMatchObject({ retryable: false, details: { outcome: "unknown" } });
      expect(error.message).toContain("may have been sent — check");
      const [latest] = dataOf<{ messages: { status: string }[] }>(
        await email.seam.call(email.context(), "email_list_sent", { limit: 1 }),
      ).messages;
      outcomes.push(latest?.status);
    }
    expect(outcomes).toEqual(["unknown", "unknown", "unknown"]);
  });

  it("believes a wait in Mailgun's text up to ten minutes", () => {
    const response = {
      status: 429,
      headers: {},
      body: Buffer.from(JSON.stringify({ message: "limit exceeded, try again after 86400 seconds" })),
    };
    const failure = mailgunFailure({ label: "Mailgun", whenRefused: "" }, response as never);
    expect(failure.retryAfterMs).toBe(600_000);
  });

  it("refuses 21 recipients before any request", async () => {
    const before = mailgun.requests.length;
    const many = Array.from({ length: 21 }, (_, index) => ({ address: `p${index}@example.com` }));
    expect(errorOf(await email.call("email_send", { ...message, to: many, bcc: undefined })).code).toBe(
      "invalid_input",
    );
    expect(mailgun.requests.length).toBe(before);
  });
});

describe("email_get_status and email_list_sent", () => {
  it("refreshes a Mailgun send's status from its events, per recipient, by the id without brackets", async () => {
    const sent = dataOf<{ sendId: string }>(await email.call("email_send", message));
    const status = await email.seam.call(email.context(), "email_get_status", { sendId: sent.sendId });
    const data = dataOf<{
      delivery: { known: boolean; recipients: { address: string; status: string; detail: string | null }[] };
    }>(status);
    const asked = mailgun.requests.at(-1);
    expect(asked?.path).toBe(`/v3/${MAILGUN_DOMAIN}/events`);
    expect(asked?.query["message-id"]).toBe(MAILGUN_MESSAGE_ID.slice(1, -1));
    expect(asked?.query.ascending).toBe("yes");
    const sentAt = dataOf<{ sentAt: number }>(status).sentAt;
    expect(asked?.query.begin).toBe(String(Math.floor(sentAt / 1000) - 60));
    expect(data.delivery.known).toBe(true);
    expect(data.delivery.recipients).toEqual([
      expect.objectContaining({ address: "ann@example.com", status: "delivered" }),
      expect.objectContaining({
        address: "nobody@example.org",
        status: "failed (permanent)",
        detail: expect.stringContaining("550 5.1.1"),
      }),
    ]);
  });

  it("lists only the caller's own sends, newest first, a page at a time, and finds no one else's", async () => {
    const first = dataOf<{ messages: { sendId: string; status: string }[]; next: string | null }>(
      await email.seam.call(email.context(), "email_list_sent", { limit: 2 }),
    );
    expect(first.messages).toHaveLength(2);
    expect(first.next).toEqual(expect.any(String));
    const second = dataOf<{ messages: { sendId: string }[] }>(
      await email.seam.call(email.context(), "email_list_sent", { limit: 2, after: first.next }),
    );
    expect(second.messages.map((entry) => entry.sendId)).not.toContain(first.messages[0]?.sendId);
    // Newest first: the two unknown outcomes' neighbours — the last sends of the tests above.
    expect(first.messages.map((entry) => entry.status)).toEqual(["sent", "unknown"]);

    const stranger = dataOf<{ messages: unknown[] }>(
      await email.seam.call(email.context({ principalId: "p2" }), "email_list_sent", {}),
    );
    expect(stranger.messages).toEqual([]);
    const sendId = first.messages[0]?.sendId ?? "";
    const theirs = errorOf(
      await email.seam.call(email.context({ principalId: "p2" }), "email_get_status", { sendId }),
    );
    expect(theirs.code).toBe("invalid_input");
    expect(
      errorOf(await email.seam.call(email.context(), "email_get_status", { sendId: "../../etc" })).code,
    ).toBe("invalid_input");
  });

  it("says a refused send was not sent", async () => {
    mailgun.next("bad-address");
    errorOf(await email.call("email_send", message));
    const [latest] = dataOf<{ messages: { sendId: string; status: string }[] }>(
      await email.seam.call(email.context(), "email_list_sent", { limit: 1 }),
    ).messages;
    expect(latest?.status).toBe("failed");
    const status = await email.seam.call(email.context(), "email_get_status", { sendId: latest?.sendId });
    if (!status.ok) throw new Error(status.error.message);
    expect(status.content).toContain("Not sent: Mailgun rejected the message (400");
  });
});
