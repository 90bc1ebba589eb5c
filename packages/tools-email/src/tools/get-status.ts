/**
 * @module `email_get_status`: what became of one of the caller's sends. For Mailgun, each recipient's latest
 * event, read now; for SMTP, what the relay answered when it took the message (a relay reports nothing
 * after that).
 */
import { ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { emailTool, hasRecords } from "../email-env.js";
import { type DeliveryReport, refusedLine } from "../providers/mail-provider.js";
import { ownerOf, readSent, SendIdSchema } from "../records/sent-records.js";
import { envelopeLines } from "./message-summary.js";

export const getStatus = emailTool({
  name: "email_get_status",
  description:
    "Tells what became of a message email_send sent, by its sendId: whether the relay or Mailgun took it, which recipients it refused, and — with Mailgun — each recipient's latest event (delivered, failed, opened …). An SMTP relay gives no delivery status after taking a message. Use email_list_sent to find a sendId.",
  category: "communication",
  effect: "read",
  cost: "io",
  available: hasRecords,
  input: z.strictObject({ sendId: SendIdSchema }),
  async run({ sendId }, context, env) {
    const record = await env.records?.get({ ...ownerOf(context), id: sendId });
    const sent = record && readSent(record);
    if (!record || !sent) {
      throw new ToolFailure(
        "invalid_input",
        `no message with sendId ${sendId} among your sends; email_list_sent lists them`,
        { retryable: false },
      );
    }
    let delivery: DeliveryReport | undefined;
    if (sent.status === "sent" || sent.status === "partial") {
      // Another domain or region's Mailgun knows nothing of this id: only the account it went through can say.
      const same =
        sent.provider === env.provider.name &&
        (sent.account ?? env.provider.account) === env.provider.account;
      delivery = same
        ? await env.provider.delivery(sent.providerMessageId, sent.accepted, record.createdAt, context)
        : {
            known: false,
            recipients: [],
            note: `sent through ${sent.provider} (${sent.account ?? "an earlier configuration"}); this deployment now uses ${env.provider.label}, which cannot look it up`,
          };
    }
    const headline = {
      sending:
        "The send was started but its outcome was never recorded (the call may have been cut off): the message may or may not have gone; ask the recipients before sending again.",
      sent: `Taken for every recipient (${sent.accepted.join(", ")}).`,
      partial: `Taken for ${sent.accepted.join(", ")}; refused for ${refusedLine(sent.refused)}.`,
      failed: `Not sent: ${sent.failure?.message ?? "the provider refused it"}`,
      unknown: `Outcome unknown: ${sent.failure?.message ?? "the provider may have taken it without answering"}`,
    }[sent.status];
    const lines = [
      `${sendId} — "${sent.subject}", ${new Date(record.createdAt).toISOString()}, through ${sent.provider}: ${headline}`,
      // The recipients only: the From line is the deployment's, not something this record kept.
      ...envelopeLines("", sent.recipients).slice(1),
      ...(sent.reply ? [`Answer when sent: ${sent.reply}`] : []),
      ...(delivery?.recipients.map(
        (entry) =>
          `${entry.address}: ${entry.status}${entry.detail ? ` — ${entry.detail}` : ""}${entry.at ? ` (${entry.at})` : ""}`,
      ) ?? []),
      ...(delivery ? [`Note: ${delivery.note}`] : []),
    ];
    return {
      content: lines.join("\n"),
      data: { sendId, sentAt: record.createdAt, ...sent, delivery: delivery ?? null },
      provenance: { source: env.provider.label, trusted: false },
    };
  },
});
