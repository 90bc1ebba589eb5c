import { describe, expect, it } from "vitest";
import { composeMessage } from "./compose.js";
import { type EmailMessage, EmailMessageSchema } from "./email-message.js";

const FROM = { address: "assistant@acme.example", name: "Acme Assistant" };

const message = (overrides: Record<string, unknown> = {}): EmailMessage =>
  EmailMessageSchema.parse({
    to: [{ address: "ann@example.com", name: "Ann Example" }],
    cc: [{ address: "bob@example.org" }],
    bcc: [{ address: "audit@acme.example" }],
    subject: "Quarterly numbers",
    text: "Hi Ann,\nthe numbers are attached.\n",
    ...overrides,
  });

describe("composeMessage", () => {
  it("writes the headers and a text body with CRLF, and no Date, Message-ID or Bcc", async () => {
    const composed = await composeMessage(message(), FROM);
    expect(composed.mime.toString("utf8")).toBe(
      [
        "From: Acme Assistant <assistant@acme.example>",
        "To: Ann Example <ann@example.com>",
        "Cc: bob@example.org",
        "Subject: Quarterly numbers",
        "MIME-Version: 1.0",
        "Content-Type: text/plain; charset=utf-8",
        "Content-Transfer-Encoding: 7bit",
        "",
        "Hi Ann,",
        "the numbers are attached.",
        "",
      ].join("\r\n"),
    );
    expect(composed.envelope).toEqual({
      from: "assistant@acme.example",
      recipients: ["ann@example.com", "bob@example.org", "audit@acme.example"],
    });
    expect(composed.recipients.bcc).toEqual(["audit@acme.example"]);
    expect(composed.mime.toString()).not.toMatch(/^(date|message-id|bcc):/im);
    expect(composed.mime.toString()).not.toContain("audit@");
  });

  it("gives the same bytes and hash for the same message, and a new boundary when the content changes", async () => {
    const html = "<p>Hi Ann,</p><p>the numbers are attached.</p>";
    const first = await composeMessage(message({ html }), FROM);
    const second = await composeMessage(message({ html }), FROM);
    expect(second.mime.equals(first.mime)).toBe(true);
    expect(second.sha256).toBe(first.sha256);
    expect(first.sha256).toMatch(/^[0-9a-f]{64}$/);
    const boundary = /boundary="([^"]+)"/.exec(first.mime.toString())?.[1];
    expect(boundary).toMatch(/^--_NmP-[0-9a-f]{32}-Part_\d+$/);
    const text = first.mime.toString();
    expect(text).toContain(`--${boundary}\r\nContent-Type: text/plain; charset=utf-8`);
    expect(text).toContain(`--${boundary}\r\nContent-Type: text/html; charset=utf-8`);
    expect(text.endsWith(`--${boundary}--\r\n`)).toBe(true);
    const changed = await composeMessage(message({ html: `${html}<p>Ann</p>` }), FROM);
    expect(/boundary="([^"]+)"/.exec(changed.mime.toString())?.[1]).not.toBe(boundary);
    // Bcc is in no header, and so changes no byte.
    const otherBcc = await composeMessage(message({ html, bcc: [{ address: "cfo@acme.example" }] }), FROM);
    expect(otherBcc.mime.equals(first.mime)).toBe(true);
  });

  it("encodes non-ASCII names and subjects as encoded-words and bodies as quoted-printable, lines within limits", async () => {
    const composed = await composeMessage(
      message({
        to: [{ address: "jorg@example.de", name: "Jörg Müller, Vertrieb" }],
        subject: "Grüße aus Zürich — die Zahlen für das dritte Quartal und was daraus folgt",
        text: `Grüße,\n${"die Zahlen für das Quartal sind da. ".repeat(12)}\n`,
      }),
      { address: "assistant@acme.example", name: "Acme Støtte" },
    );
    const text = composed.mime.toString("utf8");
    expect(text).toMatch(/^From: =\?UTF-8\?Q\?Acme_St=C3=B8tte\?= <assistant@acme\.example>\r\n/);
    expect(text).toContain("To: =?UTF-8?Q?J=C3=B6rg_M=C3=BCller=2C_Vertrieb?= <jorg@example.de>");
    expect(text).toMatch(/Subject: =\?UTF-8\?Q\?Gr=C3=BC=C3=9Fe/);
    expect(text).toContain("Content-Transfer-Encoding: quoted-printable");
    expect(text).toContain("Gr=C3=BC=C3=9Fe,\r\n");
    const other = await composeMessage(message({ text: "Ελληνικά κείμενα".repeat(20) }), FROM);
    expect(other.mime.toString()).toContain("Content-Transfer-Encoding: base64");
    // Seven-bit on the wire, every line ends in CRLF, none is longer than 78 (RFC 5322's 998 is the hard bound).
    expect(composed.mime.every((byte) => byte < 0x80)).toBe(true);
    const lines = text.split("\r\n");
    expect(lines.every((line) => !line.includes("\n") && !line.includes("\r"))).toBe(true);
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(78);
  });

  it("keeps a line break typed as LF, CR or CRLF as one CRLF", async () => {
    const [a, b] = await Promise.all([
      composeMessage(message({ text: "one\ntwo\rthree\r\n" }), FROM),
      composeMessage(message({ text: "one\r\ntwo\r\nthree\r\n" }), FROM),
    ]);
    expect(a.mime.equals(b.mime)).toBe(true);
    expect(a.mime.toString()).toContain("\r\n\r\none\r\ntwo\r\nthree\r\n");
  });

  it("writes a reply-to when asked", async () => {
    const composed = await composeMessage(
      message({ replyTo: { address: "team@acme.example", name: "Team" } }),
      FROM,
    );
    expect(composed.mime.toString()).toContain("\r\nReply-To: Team <team@acme.example>\r\n");
  });
});

describe("the message schema", () => {
  it("refuses header injection, control characters and invisible characters in every field", () => {
    for (const overrides of [
      { subject: "Hi\r\nBcc: everyone@example.com" },
      { subject: "Hi\nthere" },
      { subject: "Hi\u0000" },
      { subject: "Hi\u200B" },
      { subject: "=?UTF-8?Q?=0D=0ABcc:_x@evil.example?=" },
      { subject: "Re: =?utf-8?b?SGk=?= there" },
      { subject: "Hi\u2028Bcc: x@evil.example" },
      { subject: "Hi\u2029" },
      { to: [{ address: "ann@example.com", name: "=?UTF-8?Q?Ann=0D=0ABcc:_x@evil.example?=" }] },
      { to: [{ address: "ann@example.com", name: "Ann\u2028" }] },
      { to: [{ address: "ann@example.com\r\nBcc: x@example.com" }] },
      { to: [{ address: "ann@example.com", name: "Ann\r\nBcc: x@example.com" }] },
      { to: [{ address: "Ann <ann@example.com>" }] },
      { to: [{ address: "ann@[127.0.0.1]" }] },
      { to: [{ address: "ann@exämple.com" }] },
      { replyTo: { address: "a@b.example", name: "x\u0007" } },
      { text: "hello\u001b[31m" },
      { html: "<p>\u0000</p>" },
      { from: { address: "ceo@acme.example" } },
    ]) {
      const parsed = EmailMessageSchema.safeParse({
        to: [{ address: "ann@example.com" }],
        subject: "Hi",
        text: "Hello",
        ...overrides,
      });
      expect(parsed.success, JSON.stringify(overrides)).toBe(false);
    }
  });

  it("caps recipients at twenty across to, cc and bcc, and refuses a recipient named twice", () => {
    const people = (count: number, prefix: string) =>
      Array.from({ length: count }, (_, index) => ({ address: `${prefix}${index}@example.com` }));
    const base = { subject: "Hi", text: "Hello" };
    expect(EmailMessageSchema.safeParse({ ...base, to: people(20, "a") }).success).toBe(true);
    expect(
      EmailMessageSchema.safeParse({ ...base, to: people(10, "a"), cc: people(5, "c"), bcc: people(6, "b") })
        .success,
    ).toBe(false);
    const twice = EmailMessageSchema.safeParse({
      ...base,
      to: [{ address: "ann@example.com" }],
      bcc: [{ address: "ann@EXAMPLE.com" }],
    });
    expect(twice.success).toBe(false);
  });
});
