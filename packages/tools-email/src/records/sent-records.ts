/**
 * @module What email_send remembers of each message, in the toolkit record store (a relay keeps no list a
 * tool could read back): where it went, the hash of the bytes sent, what the provider answered. A record is
 * the caller's own (toolkit, tenant, principal from the context, never from input). Its id comes from the
 * call's idempotency key, so one call never makes two records, or is fresh where the call has no key.
 */
import { createHash, randomUUID } from "node:crypto";
import type { ToolContext, ToolkitRecord, ToolkitRecordOwner } from "toolreg/toolkit";
import { z } from "zod";
import { PROVIDER_NAMES } from "../providers/mail-provider.js";

export const EMAIL_TOOLKIT_ID = "email";

/** `unknown`: the provider may have taken it (no answer after the whole message): neither sent nor refused. */
export const SEND_STATUSES = ["sending", "sent", "partial", "failed", "unknown"] as const;

export const SentRecordSchema = z.object({
  provider: z.enum(PROVIDER_NAMES),
  /** The provider's account (relay host:port, or Mailgun domain and API root); absent in older records. */
  account: z.string().optional(),
  sha256: z.string(),
  envelopeSha256: z.string().optional(),
  subject: z.string(),
  recipients: z.object({ to: z.array(z.string()), cc: z.array(z.string()), bcc: z.array(z.string()) }),
  status: z.enum(SEND_STATUSES),
  accepted: z.array(z.string()),
  refused: z.array(z.object({ address: z.string(), code: z.number().nullable(), reply: z.string() })),
  providerMessageId: z.string().nullable(),
  reply: z.string().nullable(),
  failure: z.object({ code: z.string(), message: z.string() }).nullable(),
});

export type SentRecord = z.output<typeof SentRecordSchema>;

export function ownerOf(context: ToolContext): ToolkitRecordOwner {
  return { toolkit: EMAIL_TOOLKIT_ID, tenantId: context.tenantId, principalId: context.principalId };
}

/** `k-` and a hash of the call's key (a key may hold any character), or `m-` and a fresh id. */
export function sendIdFor(context: ToolContext): string {
  return context.idempotencyKey === undefined
    ? `m-${randomUUID()}`
    : `k-${createHash("sha256").update(context.idempotencyKey).digest("hex").slice(0, 40)}`;
}

/** A stored record's data, or undefined for one this version cannot read. */
export function readSent(record: ToolkitRecord): SentRecord | undefined {
  const parsed = SentRecordSchema.safeParse(record.data);
  return parsed.success ? parsed.data : undefined;
}

/** What a send id looks like: refused before any store is asked. */
export const SendIdSchema = z
  .string()
  .regex(/^(?:k-[0-9a-f]{40}|m-[0-9a-f-]{36})$/, "a sendId as email_send or email_list_sent gave it")
  .describe("the sendId email_send returned (email_list_sent lists them)");
