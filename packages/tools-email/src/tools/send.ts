/**
 * @module `email_send`: composes the message (the same function as the preview) and hands those bytes to the
 * provider. A refusal is never reported as a send: when no recipient was accepted the call fails, with the
 * reply codes; when some were, it says exactly which took it and which refused. Every attempt is recorded
 * (email_list_sent, email_get_status) under the caller's own key.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
import { z } from "zod";
import { type EmailEnv, emailTool, hasRecords } from "../email-env.js";
import { type ComposedMessage, composeMessage } from "../message/compose.js";
import { EmailMessageSchema } from "../message/email-message.js";
import { isUnknownOutcome, refusedLine, type Transmission } from "../providers/mail-provider.js";
import { ownerOf, type SentRecord, sendIdFor } from "../records/sent-records.js";

export const sendEmail = emailTool({
  name: "email_send",
  description:
    "Sends an e-mail from the deployment's own address to the people named in to, cc and bcc (twenty at most in all; not for lists or campaigns). A sent message cannot be recalled: show the person email_compose_preview's output first — email_send transmits exactly those bytes and returns their sha256 and a sendId. If only some recipients were accepted it says which; calling it again would send the message again to those who already have it. Use email_get_status with the sendId to see what happened after, email_list_sent for earlier sends.",
  category: "communication",
  effect: "external-write",
  cost: "io",
  available: hasRecords,
  input: EmailMessageSchema,
  output: z.object({
    sendId: z.string(),
    sha256: z.string(),
    envelopeSha256: z.string(),
    status: z.enum(["sent", "partial"]),
    accepted: z.array(z.string()),
    refused: z.array(z.object({ address: z.string(), code: z.number().nullable(), reply: z.string() })),
    providerMessageId: z.string().nullable(),
    reply: z.string(),
  }),
  async run(message, context, env) {
    const composed = await composeMessage(message, env.from);
    const record = await startRecord(composed, message.subject, context, env);
    let transmission: Transmission;
    try {
      transmission = await env.provider.transmit(composed, context);
    } catch (error) {
      // An unexpected throw may come after the hand-over: only a provider's own failure says "not sent".
      const failure = ToolFailure.isInstance(error)
        ? error
        : new ToolFailure(
            "internal",
            "sending failed unexpectedly; the message may have been sent — check with the recipients before sending it again",
            { retryable: false, details: { outcome: "unknown" } },
          );
      await finishRecord(
        record,
        {
          ...record.data,
          status: isUnknownOutcome(failure) ? "unknown" : "failed",
          failure: { code: failure.envelopeCode, message: failure.message },
        },
        env,
      );
      throw failure;
    }
    const status = transmission.refused.length > 0 ? "partial" : "sent";
    await finishRecord(
      record,
      {
        ...record.data,
        status,
        accepted: transmission.accepted,
        refused: transmission.refused,
        providerMessageId: transmission.providerMessageId,
        reply: transmission.reply,
      },
      env,
    );
    const lines =
      status === "sent"
        ? [
            `Sent through ${env.provider.label} to ${transmission.accepted.length} recipient(s): ${transmission.accepted.join(", ")}.`,
          ]
        : [
            `Partly sent through ${env.provider.label}: accepted for ${transmission.accepted.join(", ")}; NOT sent to ${refusedLine(transmission.refused)}.`,
            `Calling email_send again would send it a second time to those who have it; to reach the others, send a new message to them alone: ${partialAdvice(transmission)}.`,
          ];
    return {
      content: [
        ...lines,
        `sendId ${record.id}; sha256 ${composed.sha256} (the bytes email_compose_preview showed); envelope sha256 ${composed.envelopeSha256} (sender and recipients, bcc included, which the message hash does not cover).`,
        ...(transmission.reply
          ? [`The ${env.provider.name === "smtp" ? "relay" : "provider"} answered: ${transmission.reply}`]
          : []),
      ].join("\n"),
      data: {
        sendId: record.id,
        sha256: composed.sha256,
        envelopeSha256: composed.envelopeSha256,
        status,
        accepted: transmission.accepted,
        refused: transmission.refused,
        providerMessageId: transmission.providerMessageId,
        reply: transmission.reply,
      },
      provenance: { source: env.provider.label, trusted: false },
    };
  },
});

/** What to do about the refused: a 4xx is temporary (later, to them alone), a 5xx needs the address fixed. */
function partialAdvice(transmission: Transmission): string {
  const temporary = transmission.refused.filter((entry) => entry.code !== null && entry.code < 500);
  const permanent = transmission.refused.filter((entry) => !temporary.includes(entry));
  return [
    ...(temporary.length > 0
      ? [
          `the refusal of ${temporary.map((entry) => entry.address).join(", ")} is temporary (4xx): try again later`,
        ]
      : []),
    ...(permanent.length > 0
      ? [`${permanent.map((entry) => entry.address).join(", ")} refused permanently: check the address first`]
      : []),
  ].join("; ");
}

interface StartedRecord {
  id: string;
  data: SentRecord;
  context: ToolContext;
}

/** Recorded before anything is sent, so a call that dies midway still shows as an attempt. */
async function startRecord(
  composed: ComposedMessage,
  subject: string,
  context: ToolContext,
  env: EmailEnv,
): Promise<StartedRecord> {
  const id = sendIdFor(context);
  const data: SentRecord = {
    provider: env.provider.name,
    account: env.provider.account,
    sha256: composed.sha256,
    envelopeSha256: composed.envelopeSha256,
    subject,
    recipients: composed.recipients,
    status: "sending",
    accepted: [],
    refused: [],
    providerMessageId: null,
    reply: null,
    failure: null,
  };
  const added = await records(env).add({ ...ownerOf(context), id, data, at: env.now() });
  if (!added) {
    throw new ToolFailure(
      "idempotency_conflict",
      `a send was already attempted under this call's key (sendId ${id}); nothing was sent again. email_get_status tells what became of it`,
      { retryable: false, details: { sendId: id } },
    );
  }
  return { id, data, context };
}

async function finishRecord(record: StartedRecord, data: SentRecord, env: EmailEnv): Promise<void> {
  const written = await records(env).update({
    ...ownerOf(record.context),
    id: record.id,
    data,
    version: 1,
    at: env.now(),
  });
  if (!written) record.context.logger.warn({ sendId: record.id }, "email_send could not update its record");
}

function records(env: EmailEnv) {
  // `available` keeps the tool out of a deployment without a store: its absence here is a broken invariant.
  if (!env.records) throw new ToolFailure("precondition_failed", "no record store is configured for e-mail");
  return env.records;
}
