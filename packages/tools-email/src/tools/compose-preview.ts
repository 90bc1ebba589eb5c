/**
 * @module `email_compose_preview`: the exact message email_send would transmit for the same input, composed
 * here and sent nowhere: its MIME text, the hash of its bytes, and the envelope with bcc listed apart.
 */
import { z } from "zod";
import { emailTool, hasRecords } from "../email-env.js";
import { composeMessage } from "../message/compose.js";
import { EmailMessageSchema } from "../message/email-message.js";
import { envelopeLines } from "./message-summary.js";

export const composePreview = emailTool({
  name: "email_compose_preview",
  description:
    "Composes an e-mail exactly as email_send would transmit it — same input, same bytes — and sends nothing: returns the full MIME text, its sha256 (email_send returns the hash of what it sent, so the two can be compared) and the envelope, with bcc recipients listed separately (they receive it but appear in no header). Use it to show a person the message before they approve email_send. The From address is the deployment's own.",
  category: "communication",
  effect: "read",
  cost: "cpu",
  available: hasRecords,
  input: EmailMessageSchema,
  output: z.object({
    mime: z.string(),
    sha256: z.string(),
    envelopeSha256: z.string(),
    bytes: z.int(),
    envelope: z.object({
      from: z.string(),
      to: z.array(z.string()),
      cc: z.array(z.string()),
      bcc: z.array(z.string()),
    }),
    bccInHeaders: z.literal(false),
  }),
  async run(message, _context, env) {
    const composed = await composeMessage(message, env.from);
    const mime = composed.mime.toString("utf8");
    return {
      content: [
        `Preview: nothing was sent. email_send with the same input transmits exactly these ${composed.mime.length} bytes (sha256 ${composed.sha256}) through ${env.provider.label}.`,
        ...envelopeLines(composed.envelope.from, composed.recipients),
        "Bcc recipients are in the envelope only, not in any header. The relay or Mailgun adds its own Date and Message-ID headers when it takes the message.",
        `The sha256 covers the MIME text only, so not bcc; envelope sha256 ${composed.envelopeSha256} covers the sender and every recipient, bcc included (email_send returns both).`,
        "",
        mime,
      ].join("\n"),
      data: {
        mime,
        sha256: composed.sha256,
        envelopeSha256: composed.envelopeSha256,
        bytes: composed.mime.length,
        envelope: { from: composed.envelope.from, ...composed.recipients },
        bccInHeaders: false as const,
      },
    };
  },
});
