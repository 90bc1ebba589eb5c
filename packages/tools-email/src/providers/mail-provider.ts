/**
 * @module The provider port: email_send and email_get_status talk to this interface only. SMTP and Mailgun
 * both transmit the composed bytes unchanged, so a preview rehearses the message that actually goes.
 */
import type { ToolContext } from "toolreg/toolkit";
import type { ComposedMessage } from "../message/compose.js";

export const PROVIDER_NAMES = ["smtp", "mailgun"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** A recipient the relay or API refused, with its reply code when it gave one. */
export interface RefusedRecipient {
  address: string;
  code: number | null;
  reply: string;
}

/** What the provider took: never a send unless at least one recipient was accepted. */
export interface Transmission {
  accepted: string[];
  refused: RefusedRecipient[];
  /** Mailgun's id, or the relay's queue id when its reply names one. */
  providerMessageId: string | null;
  /** The relay's final reply, or Mailgun's message, as it said it (untrusted text, one line). */
  reply: string;
}

/** What happened after the hand-over, per recipient, where the provider can say. */
export interface DeliveryReport {
  /** False for SMTP: a relay says it took a message, never what became of it. */
  known: boolean;
  recipients: { address: string; status: string; detail: string | null; at: string | null }[];
  note: string;
}

export interface MailProvider {
  readonly name: ProviderName;
  readonly label: string;
  /** Sends `composed.mime` to the envelope's recipients; throws a ToolFailure when none was accepted. */
  transmit(composed: ComposedMessage, context: ToolContext): Promise<Transmission>;
  /** What is known now of a message it sent, by its id. */
  delivery(
    providerMessageId: string | null,
    recipients: readonly string[],
    context: ToolContext,
  ): Promise<DeliveryReport>;
}

/** The refused recipients as a model reads them: each address with the reply that refused it. */
export function refusedLine(refused: readonly RefusedRecipient[]): string {
  return refused.map((entry) => `${entry.address} (${entry.reply || entry.code || "no reply"})`).join("; ");
}
