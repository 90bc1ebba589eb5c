/**
 * @module The SMTP provider: nodemailer's SMTP transport sends the composed MIME as `raw` with an explicit
 * envelope, so the relay receives exactly the previewed bytes (bcc recipients in RCPT TO only). The relay is
 * the operator's configuration, yet the connection still goes through the egress policy: its host is checked
 * against the host lists and address rules and the connection is pinned to the address that was checked,
 * the host name kept for TLS (SNI and the certificate) only. A relay says it took a message; it never says
 * what became of it, so there is no delivery status to read back.
 */
import { isIP } from "node:net";
import nodemailer from "nodemailer";
import type { SMTPTransportOptions } from "nodemailer/lib/smtp-transport";
import { type EgressClient, ToolFailure } from "toolreg/toolkit";
import type { SmtpConfig } from "../email-config.js";
import type { MailProvider, Transmission } from "./mail-provider.js";
import { refusedRecipients, replyText, type SmtpError, smtpFailure } from "./smtp-failure.js";
import { resolveSmtpLogin } from "./smtp-login.js";

/** No step of one exchange may take longer, whatever the call has left. */
const STEP_TIMEOUT_MS = 30_000;

export interface CheckedRelay {
  host: string;
  port: number;
  address: string;
}

/** nodemailer's options for one connection to the checked address, named `relay.host` for TLS. */
export function smtpTransportOptions(
  relay: CheckedRelay,
  config: Pick<SmtpConfig, "secure">,
  clientName: string,
  login: { user: string; pass: string } | undefined,
  timeoutMs: number,
): SMTPTransportOptions {
  // An IP literal is no server name (RFC 6066 §3): the certificate is checked against the address then.
  const servername = isIP(relay.host) ? undefined : relay.host;
  const step = Math.max(1, Math.min(timeoutMs, STEP_TIMEOUT_MS));
  return {
    host: relay.address,
    port: relay.port,
    secure: config.secure === "tls",
    requireTLS: config.secure === "starttls",
    ignoreTLS: config.secure === "none",
    ...(servername ? { servername } : {}),
    tls: { ...(servername ? { servername } : {}), minVersion: "TLSv1.2", rejectUnauthorized: true },
    name: clientName,
    ...(login ? { auth: login } : {}),
    connectionTimeout: step,
    greetingTimeout: step,
    socketTimeout: step,
    disableFileAccess: true,
    disableUrlAccess: true,
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
    async transmit(composed, context): Promise<Transmission> {
      const target = await egress.checkConnection(config.host, config.port, context.signal);
      const login = config.credentialRef ? await resolveSmtpLogin(context, config.credentialRef) : undefined;
      const left = context.deadline - Date.now();
      const transport = nodemailer.createTransport(
        smtpTransportOptions(
          target,
          config,
          clientName,
          login,
          Number.isFinite(left) ? left : STEP_TIMEOUT_MS,
        ),
      );
      try {
        const info = await transport.sendMail({
          envelope: { from: composed.envelope.from, to: composed.envelope.recipients },
          raw: composed.mime,
          signal: context.signal,
        });
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
          refused: refusedRecipients((info as { rejectedErrors?: SmtpError[] }).rejectedErrors),
          providerMessageId: /queued as ([A-Za-z0-9._-]{1,100})/i.exec(reply)?.[1] ?? null,
          reply,
        };
      } catch (error) {
        throw smtpFailure(error, relay, config.credentialRef);
      } finally {
        transport.close();
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
