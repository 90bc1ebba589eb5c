/**
 * @module The SMTP provider: nodemailer's SMTP transport sends the composed MIME as `raw` with an explicit
 * envelope, so the relay receives exactly the previewed bytes (bcc recipients in RCPT TO only). The relay is
 * the operator's configuration, yet the connection still goes through the egress policy: its host is checked
 * against the host lists and address rules and the connection is pinned to the address that was checked,
 * the host name kept for TLS (SNI and the certificate) only. A relay says it took a message; it never says
 * what became of it, so there is no delivery status to read back.
 */
import { isIP } from "node:net";
import { PassThrough } from "node:stream";
import SMTPConnection, { type SMTPConnectionOptions } from "nodemailer/lib/smtp-connection";
import { type EgressClient, ToolFailure } from "toolreg/toolkit";
import type { SmtpConfig } from "../email-config.js";
import type { ComposedMessage } from "../message/compose.js";
import type { MailProvider, Transmission } from "./mail-provider.js";
import { refusedRecipients, replyText, type SmtpError, smtpFailure } from "./smtp-failure.js";
import { resolveSmtpLogin } from "./smtp-login.js";

/** No step of one exchange may take longer, whatever the call has left. */
const STEP_TIMEOUT_MS = 30_000;

export interface CheckedRelay {
  host: string;
  port: number;
  address: string;
  /** The authorities egress trusts besides Node's own (a private CA), when it has some. */
  ca?: readonly string[];
}

/** nodemailer's options for one connection to the checked address, named `relay.host` for TLS. */
export function smtpConnectionOptions(
  relay: CheckedRelay,
  config: Pick<SmtpConfig, "secure">,
  clientName: string,
  timeoutMs: number,
): SMTPConnectionOptions {
  // An IP literal is no server name (RFC 6066 §3): the certificate is checked against the address then.
  const servername = isIP(relay.host) ? undefined : relay.host;
  // A fifth of the call's time is left over, so a relay's silence is this provider's answer (and its record),
  // not the call's deadline cutting it off.
  const step = Math.max(1, Math.min(Math.floor(timeoutMs * 0.8), STEP_TIMEOUT_MS));
  return {
    host: relay.address,
    port: relay.port,
    secure: config.secure === "tls",
    requireTLS: config.secure === "starttls",
    ignoreTLS: config.secure === "none",
    ...(servername ? { servername } : {}),
    tls: {
      ...(servername ? { servername } : {}),
      ...(relay.ca ? { ca: [...relay.ca] } : {}),
      minVersion: "TLSv1.2",
      rejectUnauthorized: true,
    },
    name: clientName,
    connectionTimeout: step,
    greetingTimeout: step,
    socketTimeout: step,
    logger: false,
    debug: false,
  };
}

export function createSmtpProvider(setup: {
  config: SmtpConfig;
  egress: EgressClient;
  clientName: string;
}): MailProvider {
  const { config, egress, clientName } = setup;
  const relay = `the SMTP relay ${config.host}:${config.port}`;
  return {
    name: "smtp",
    label: relay,
    account: `${config.host}:${config.port}`,
    async transmit(composed, context): Promise<Transmission> {
      const target = await egress.checkConnection(config.host, config.port, context.signal);
      const login = config.credentialRef ? await resolveSmtpLogin(context, config.credentialRef) : undefined;
      const left = context.deadline - Date.now();
      const connection = new SMTPConnection(
        smtpConnectionOptions(target, config, clientName, Number.isFinite(left) ? left : STEP_TIMEOUT_MS),
      );
      const progress = { handedOver: false };
      try {
        const info = await exchange(connection, composed, login, context.signal, progress);
        const accepted = info.accepted.map(String);
        if (accepted.length === 0) {
          // nodemailer fails a send with no accepted recipient; should it ever not, it is still no send.
          throw new ToolFailure(
            "upstream_error",
            `${relay} accepted no recipient; the message was not sent`,
            {
              retryable: false,
            },
          );
        }
        const reply = replyText(info.response);
        return {
          accepted,
          refused: refusedRecipients(info.rejectedErrors as SmtpError[] | undefined),
          providerMessageId: /queued as ([A-Za-z0-9._-]{1,100})/i.exec(reply)?.[1] ?? null,
          reply,
        };
      } catch (error) {
        throw smtpFailure(error, relay, config.credentialRef, progress.handedOver);
      } finally {
        connection.close();
      }
    },
    async delivery() {
      return {
        known: false,
        recipients: [],
        note: `${relay} reports only whether it took the message; SMTP gives no delivery status afterwards (a bounce, if any, comes back to the sender's mailbox)`,
      };
    },
  };
}

type SendInfo = Parameters<Parameters<SMTPConnection["send"]>[2]>[1];

/**
 * One SMTP exchange: connect (TLS as configured), log in when the relay offers AUTH, send the bytes. The
 * message goes in as a stream the connection reads only after the relay's 354 to DATA; when it has been read
 * to its end the final "." follows, so from then on a connection that ends without a reply leaves the outcome
 * unknown (the relay may have queued it), while before it the relay must drop the transaction (RFC 5321 §3.8).
 */
function exchange(
  connection: SMTPConnection,
  composed: ComposedMessage,
  login: { user: string; pass: string } | undefined,
  signal: AbortSignal | undefined,
  progress: { handedOver: boolean },
): Promise<NonNullable<SendInfo>> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: unknown, info?: SendInfo) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", onAbort);
      if (error || !info) reject(error ?? new Error("the relay gave no answer"));
      else resolve(info);
    };
    const onAbort = () => finish(Object.assign(new Error("aborted"), { code: "EABORT" }));
    if (signal?.aborted) return onAbort();
    signal?.addEventListener("abort", onAbort, { once: true });
    connection.once("error", (error) => finish(error));
    connection.connect((error) => {
      if (error) return finish(error);
      const send = () => {
        const message = new PassThrough();
        message.once("end", () => {
          progress.handedOver = true;
        });
        message.end(composed.mime);
        connection.send(
          { from: composed.envelope.from, to: composed.envelope.recipients },
          message,
          (failure, info) => finish(failure, info),
        );
      };
      // As nodemailer's transport does: a relay that offers no AUTH is sent to without a login.
      if (!login || !connection.allowsAuth) return send();
      connection.login(login, (failure) => (failure ? finish(failure) : send()));
    });
  });
}
