/**
 * @module The message a model writes: recipients in to, cc and bcc (twenty at most across the three — this is
 * mail to people the caller named, not a list or a campaign), an optional reply-to, a subject, a text body and
 * an optional HTML alternative. The From address is the operator's, never an input. Every field refuses what
 * could break out of its header or part (CR, LF and other control characters) before anything is composed.
 */
import { z } from "zod";
import { headerTextProblem, MailboxSchema } from "./mailbox.js";

/** The seed's cap: a tool that could address a hundred people would be a publishing surface. */
export const MAX_RECIPIENTS = 20;
export const MAX_SUBJECT_CHARS = 300;
export const MAX_TEXT_CHARS = 50_000;
export const MAX_HTML_CHARS = 100_000;

/** Line breaks and tabs are a body's own; any other control character is refused. */
const hasBodyControl = (value: string) => /\p{Cc}/u.test(value.replace(/[\t\n\r]/g, ""));

const recipients = (field: string) =>
  z.array(MailboxSchema).max(MAX_RECIPIENTS).describe(`${field}: people to send to, each { address, name? }`);

export const EmailMessageSchema = z
  .strictObject({
    to: recipients("To").min(1, "name at least one recipient in to"),
    cc: recipients("Cc").optional(),
    bcc: recipients("Bcc (not shown to the other recipients)").optional(),
    replyTo: MailboxSchema.optional().describe("where replies should go, when not to the sender"),
    subject: z
      .string()
      .min(1)
      .max(MAX_SUBJECT_CHARS)
      .superRefine((value, issues) => {
        const problem = headerTextProblem(value);
        if (problem)
          issues.addIssue({ code: "custom", message: `${problem} are not allowed in the subject` });
      })
      .refine((value) => value.trim().length > 0, "the subject is blank")
      .describe(`the subject line (at most ${MAX_SUBJECT_CHARS} characters)`),
    text: z
      .string()
      .min(1)
      .max(MAX_TEXT_CHARS)
      .refine((value) => !hasBodyControl(value), "control characters other than line breaks and tabs")
      .describe(`the plain-text body (at most ${MAX_TEXT_CHARS} characters); always sent`),
    html: z
      .string()
      .min(1)
      .max(MAX_HTML_CHARS)
      .refine((value) => !hasBodyControl(value), "control characters other than line breaks and tabs")
      .optional()
      .describe(
        `an HTML version of the same body (at most ${MAX_HTML_CHARS} characters), sent beside the text as multipart/alternative`,
      ),
  })
  .superRefine((message, issues) => {
    const all = [...message.to, ...(message.cc ?? []), ...(message.bcc ?? [])];
    if (all.length > MAX_RECIPIENTS) {
      issues.addIssue({
        code: "custom",
        path: ["to"],
        message: `at most ${MAX_RECIPIENTS} recipients across to, cc and bcc (${all.length} given): this tool writes to people, it does not send to lists or campaigns`,
      });
    }
    const seen = new Set<string>();
    for (const mailbox of all) {
      const key = mailbox.address.toLowerCase();
      if (seen.has(key)) {
        issues.addIssue({
          code: "custom",
          path: ["to"],
          message: `${mailbox.address} is named twice; name each recipient once, in one of to, cc or bcc`,
        });
      }
      seen.add(key);
    }
  });

export type EmailMessage = z.output<typeof EmailMessageSchema>;
