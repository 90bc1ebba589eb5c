/**
 * @module The e-mail toolkit: compose and preview a message, send it from the operator's own address through
 * an SMTP relay or Mailgun, and read back what was sent. Both providers transmit the one composed MIME, so the
 * preview is the message. The relay's connection and Mailgun's requests go through egress; Mailgun's key is
 * injected there as HTTP Basic, the relay's login resolved per call.
 */
import { basicCredential, defineToolkit } from "toolreg/toolkit";
import { type EmailConfig, EmailConfigSchema, MAILGUN_HOSTS } from "./email-config.js";
import type { EmailEnv } from "./email-env.js";
import type { MailProvider } from "./providers/mail-provider.js";
import { createMailgunProvider } from "./providers/mailgun-provider.js";
import { createSmtpProvider } from "./providers/smtp-provider.js";
import { composePreview } from "./tools/compose-preview.js";
import { getStatus } from "./tools/get-status.js";
import { listSent } from "./tools/list-sent.js";
import { sendEmail } from "./tools/send.js";

const PACKAGE = "@toolreg/tools-email";

export const emailToolkit = defineToolkit<EmailConfig, EmailEnv>({
  id: "email",
  version: "0.1.0",
  package: PACKAGE,
  description:
    "E-mail to people the caller names (twenty at most), from the operator's own address, over SMTP or Mailgun; preview, send, status and a list of what was sent.",
  config: EmailConfigSchema,
  // One placement per toolkit fits one vendor: Mailgun's, as HTTP Basic api:KEY; a relay's login is not HTTP.
  auth: { kind: "api-key", header: "authorization" },
  hosts: [new URL(MAILGUN_HOSTS.us).hostname, new URL(MAILGUN_HOSTS.eu).hostname],
  tools: [composePreview, sendEmail, getStatus, listSent],
  triage: {
    directed: [
      {
        tool: "email_send",
        package: PACKAGE,
        why: "mail goes to addresses the caller named, from the operator's own verified domain; with at most twenty recipients across to, cc and bcc it stays a message to people, not a broadcast or a campaign",
      },
    ],
  },
  bind(config, host): EmailEnv {
    return { from: config.from, provider: providerFor(config, host), records: host.records, now: Date.now };
  },
});

function providerFor(config: EmailConfig, host: Parameters<typeof emailToolkit.bind>[1]): MailProvider {
  if (config.provider === "smtp") {
    return createSmtpProvider({
      config: config.smtp,
      egress: host.egress({ hosts: [config.smtp.host] }),
      clientName:
        config.smtp.clientName ?? config.from.address.slice(config.from.address.lastIndexOf("@") + 1),
    });
  }
  const { mailgun } = config;
  const baseUrl = mailgun.baseUrl ?? MAILGUN_HOSTS[mailgun.region];
  return createMailgunProvider({
    baseUrl,
    domain: mailgun.domain,
    credentialRef: mailgun.credentialRef,
    egress: host.egress({
      hosts: [new URL(baseUrl).hostname],
      credential: {
        header: "authorization",
        credentialRef: mailgun.credentialRef,
        exchange: basicCredential({ describe: "the Mailgun API key as api:KEY" }),
      },
    }),
  });
}
