/**
 * @module The provider port: email_send and email_get_status talk to this interface only. SMTP and Mailgun
 * both transmit the composed bytes unchanged, so a preview rehearses the message that actually goes.
 */
import { type ToolContext, ToolFailure } from "toolreg/toolkit";
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
  /** Which relay or Mailgun domain and API root: a send recorded under another cannot be looked up here. */
  readonly account: string;
  /** Sends `composed.mime` to the envelope's recipients; throws a ToolFailure when none was accepted. */
  transmit(composed: ComposedMessage, context: ToolContext): Promise<Transmission>;
  /** What is known now of a message it sent, by its id; `sentAt` (epoch ms) bounds where to look. */
  delivery(
    providerMessageId: string | null,
    recipients: readonly string[],
    sentAt: number,
    context: ToolContext,
  ): Promise<DeliveryReport>;
}

/** The refused recipients as a model reads them: each address with the reply that refused it. */
export function refusedLine(refused: readonly RefusedRecipient[]): string {
  return refused.map((entry) => `${entry.address} (${entry.reply || entry.code || "no reply"})`).join("; ");
}

/**
 * A failure after the message may have reached the provider (the relay had the whole message and never
 * answered; Mailgun timed out or failed after the POST): not a send and not a refusal. Never retryable: a retry
 * could deliver it twice.
 */
export function unknownOutcome(
  code: "timeout" | "upstream_error",
  what: string,
  details: Record<string, unknown>,
): ToolFailure {
  return new ToolFailure(
    code,
    `${what}; the message may have been sent — check with the recipients (email_get_status tells what is known) before sending it again`,
    { retryable: false, details: { ...details, outcome: "unknown" } },
  );
}

/** Whether a failure is one of unknownOutcome's. */
export function isUnknownOutcome(failure: ToolFailure): boolean {
  return (failure.details as { outcome?: unknown } | undefined)?.outcome === "unknown";
}
