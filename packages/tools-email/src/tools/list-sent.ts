/** @module `email_list_sent`: the caller's own sends, newest first, a page at a time. */
import { z } from "zod";
import { emailTool, hasRecords } from "../email-env.js";
import { ownerOf, readSent } from "../records/sent-records.js";

export const MAX_LIST = 50;

export const listSent = emailTool({
  name: "email_list_sent",
  description:
    "Lists the messages you sent with email_send, newest first: sendId, when, subject, recipients, and whether each was sent, partly sent or refused. Pass `after` (the `next` of the previous page) for older ones. Use email_get_status with a sendId for what happened after sending.",
  category: "communication",
  effect: "read",
  cost: "io",
  available: hasRecords,
  input: z.strictObject({
    limit: z.int().min(1).max(MAX_LIST).default(10).describe(`how many (1–${MAX_LIST}, default 10)`),
    after: z
      .string()
      .max(512)
      .regex(/^[A-Za-z0-9_-]+$/, "the `next` value a previous page returned")
      .optional()
      .describe("the `next` value of the previous page, for older messages"),
  }),
  async run({ limit, after }, context, env) {
    const page = await env.records?.list({ ...ownerOf(context), limit, ...(after ? { after } : {}) });
    const messages = (page?.records ?? []).flatMap((record) => {
      const sent = readSent(record);
      return sent
        ? [
            {
              sendId: record.id,
              sentAt: new Date(record.createdAt).toISOString(),
              status: sent.status,
              subject: sent.subject,
              to: sent.recipients.to,
              cc: sent.recipients.cc,
              bcc: sent.recipients.bcc,
              provider: sent.provider,
              sha256: sent.sha256,
            },
          ]
        : [];
    });
    const lines = messages.map(
      (entry) =>
        `${entry.sendId} ${entry.sentAt} [${entry.status}] "${entry.subject}" to ${[...entry.to, ...entry.cc].join(", ")}${entry.bcc.length > 0 ? ` (+${entry.bcc.length} bcc)` : ""}`,
    );
    const next = page?.next;
    return {
      content:
        messages.length === 0
          ? after
            ? "No older messages."
            : "You have sent no messages with email_send (records are kept 90 days)."
          : [...lines, ...(next ? [`More: call again with after "${next}".`] : [])].join("\n"),
      data: { messages, next: next ?? null },
      provenance: { source: "email records", trusted: false },
    };
  },
});
