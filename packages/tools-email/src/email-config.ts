/**
 * @module The e-mail toolkit's configuration: the operator's own From address (never a model's input), and
 * one provider — an SMTP relay (host, port, TLS mode, the reference of its `user:password`) or Mailgun (the
 * sending domain, its region, the reference of its API key stored as `api:KEY`). Never a secret.
 */
import { apiRootUrl } from "toolreg/toolkit";
import { z } from "zod";
import { inDomain, MailboxSchema } from "./message/mailbox.js";

const HOST =
  /^(?=.{1,253}$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)*[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
const credentialRef = z.string().min(1).max(200);

export const SmtpConfigSchema = z
  .strictObject({
    host: z.string().regex(HOST, "a host name or IPv4 address").meta({
      description: "the relay's host name (its TLS certificate must name it)",
    }),
    port: z
      .int()
      .min(1)
      .max(65_535)
      .default(587)
      .meta({ description: "587 (submission) by default; 465 for implicit TLS" }),
    secure: z.enum(["tls", "starttls", "none"]).optional().meta({
      description:
        "tls: implicit TLS (the default on 465); starttls: STARTTLS required, refusing a relay that does not offer it (the default otherwise); none: plain text, only for a relay on the operator's own network",
    }),
    credentialRef: credentialRef.optional().meta({
      description:
        "the credential the relay's login is resolved from, per call, stored as user:password; omit for a relay that takes no login",
    }),
    clientName: z.string().regex(HOST).optional().meta({
      description: "the name given in EHLO (the From address's domain by default)",
    }),
  })
  .transform((smtp) => ({ ...smtp, secure: smtp.secure ?? (smtp.port === 465 ? "tls" : "starttls") }));

export const MAILGUN_HOSTS = { us: "https://api.mailgun.net", eu: "https://api.eu.mailgun.net" } as const;

export const MailgunConfigSchema = z.strictObject({
  domain: z
    .string()
    .regex(HOST)
    .meta({ description: "the sending domain verified at Mailgun, e.g. mg.acme.example" }),
  region: z.enum(["us", "eu"]).default("us").meta({
    description: "where the domain lives: us (api.mailgun.net) or eu (api.eu.mailgun.net)",
  }),
  credentialRef: credentialRef.default("mailgun").meta({
    description: "the credential holding the API key, stored as api:KEY (sent as HTTP Basic)",
  }),
  baseUrl: apiRootUrl()
    .optional()
    .meta({ description: "replaces the region's API root (a proxy, or a fake in tests)" }),
});

const from = MailboxSchema.meta({
  description: "the operator's own sender, on its verified domain; a model cannot change it",
});

export const EmailConfigSchema = z
  .discriminatedUnion("provider", [
    z.strictObject({ provider: z.literal("smtp"), from, smtp: SmtpConfigSchema }),
    z.strictObject({ provider: z.literal("mailgun"), from, mailgun: MailgunConfigSchema }),
  ])
  .superRefine((config, issues) => {
    // Mailgun signs and sends for its verified domain: a From outside it is refused there, or lands as spam.
    if (config.provider === "mailgun" && !inDomain(config.from.address, config.mailgun.domain)) {
      issues.addIssue({
        code: "custom",
        path: ["from", "address"],
        message: `the From address must be on the sending domain ${config.mailgun.domain}`,
      });
    }
  });

export type EmailConfig = z.output<typeof EmailConfigSchema>;
export type SmtpConfig = z.output<typeof SmtpConfigSchema>;
export type MailgunConfig = z.output<typeof MailgunConfigSchema>;
