/**
 * @module The one compose function: the preview and the send both call it, so what is previewed is byte for
 * byte what is transmitted. Nothing in it varies between two calls: no Date and no Message-ID header (the
 * relay or Mailgun adds its own on the way; those are theirs, after the bytes this toolkit hashes), and the
 * multipart boundary is derived from a hash of the content rather than drawn at random. No Bcc header is
 * written: bcc recipients are in the envelope only.
 *
 * The encodings are nodemailer's own MimeNode (RFC 2047 encoded-words for non-ASCII headers, quoted-printable
 * or base64 bodies, folded header lines, CRLF). A root MimeNode always stamps Date and Message-ID, with no
 * option to leave them out, so the message is built as a child of an unbuilt holder node: the holder gives
 * the boundary base, the child is the whole message, and MIME-Version is set on it here.
 */
import { createHash } from "node:crypto";
import MimeNode from "nodemailer/lib/mime-node";
import type { EmailMessage } from "./email-message.js";
import type { Mailbox } from "./mailbox.js";

export interface ComposedMessage {
  /** The RFC 5322 message, CRLF line ends, as transmitted. */
  mime: Buffer;
  /** Hex SHA-256 of `mime`. */
  sha256: string;
  /**
   * Hex SHA-256 of the envelope as SMTP states it (`MAIL FROM:<…>` then one `RCPT TO:<…>` per recipient, CRLF
   * after each): `sha256` does not cover bcc, which is in the envelope only.
   */
  envelopeSha256: string;
  envelope: {
    /** The operator's address, sent as MAIL FROM. */
    from: string;
    /** Every recipient's address, to then cc then bcc: the RCPT TO list. */
    recipients: string[];
  };
  /** Who is where; bcc is in the envelope and never in the headers. */
  recipients: { to: string[]; cc: string[]; bcc: string[] };
}

/** Composes `message` from the operator's `from`; the same input gives the same bytes, always. */
export async function composeMessage(message: EmailMessage, from: Mailbox): Promise<ComposedMessage> {
  const text = crlf(message.text);
  const html = message.html === undefined ? undefined : crlf(message.html);
  const shown = {
    from,
    to: message.to,
    cc: message.cc ?? [],
    replyTo: message.replyTo,
    subject: message.subject,
    text,
    html,
  };
  const holder = new MimeNode(undefined, {
    // The boundary cannot occur in the parts it separates: it would have to contain a hash of itself.
    baseBoundary: sha256(JSON.stringify(shown)).slice(0, 32),
    disableFileAccess: true,
    disableUrlAccess: true,
  });
  const root = holder.createChild(undefined, { disableFileAccess: true, disableUrlAccess: true });
  root.setHeader("From", mailbox(from));
  root.setHeader("To", shown.to.map(mailbox));
  if (shown.cc.length > 0) root.setHeader("Cc", shown.cc.map(mailbox));
  if (shown.replyTo) root.setHeader("Reply-To", mailbox(shown.replyTo));
  root.setHeader("Subject", shown.subject);
  root.setHeader("MIME-Version", "1.0");
  if (html === undefined) {
    root.setHeader("Content-Type", "text/plain; charset=utf-8");
    root.setContent(text);
  } else {
    root.setHeader("Content-Type", "multipart/alternative");
    root.createChild("text/plain; charset=utf-8").setContent(text);
    root.createChild("text/html; charset=utf-8").setContent(html);
  }
  const mime = await root.build();
  const recipients = {
    to: message.to.map((entry) => entry.address),
    cc: (message.cc ?? []).map((entry) => entry.address),
    bcc: (message.bcc ?? []).map((entry) => entry.address),
  };
  const envelope = {
    from: from.address,
    recipients: [...recipients.to, ...recipients.cc, ...recipients.bcc],
  };
  const stated = [`MAIL FROM:<${envelope.from}>`, ...envelope.recipients.map((to) => `RCPT TO:<${to}>`)];
  return {
    mime,
    sha256: sha256(mime),
    envelopeSha256: sha256(stated.map((line) => `${line}\r\n`).join("")),
    envelope,
    recipients,
  };
}

function mailbox({ address, name }: Mailbox): { address: string; name: string } {
  return { address, name: name ?? "" };
}

/** Every line break as CRLF, as RFC 5322 requires on the wire. */
function crlf(text: string): string {
  return text.replace(/\r\n|\r|\n/g, "\r\n");
}

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}
