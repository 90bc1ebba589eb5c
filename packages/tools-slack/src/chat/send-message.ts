/**
 * @module What posting and replying share: one chat.postMessage, and its answer told back. Slack takes no
 * idempotency key here, so a post whose answer was lost cannot be retried safely: the seam's key guards it.
 */
import type { ToolContext } from "toolreg/toolkit";
import type { SlackEnv } from "../slack-env.js";
import { warningsOf } from "../slack-shapes.js";

/** A message, or a reply: the parent message's ts, and whether the reply also shows in the channel. */
export type OutgoingMessage = { channel: string; text: string; mrkdwn: boolean } & (
  | { thread_ts?: undefined }
  | { thread_ts: string; reply_broadcast: boolean }
);

export interface SentMessage {
  channel: string;
  ts: string;
  threadTs?: string;
  warnings?: string[];
}

export async function sendMessage(
  message: OutgoingMessage,
  what: string,
  context: ToolContext,
  env: SlackEnv,
): Promise<{ content: string; data: SentMessage }> {
  const result = await env.slack(context).call(what, (client) => client.chat.postMessage(message));
  const warnings = warningsOf(result);
  const sent: SentMessage = {
    channel: result.channel ?? message.channel,
    ts: result.ts ?? "",
    ...(message.thread_ts === undefined ? {} : { threadTs: message.thread_ts }),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
  const where =
    sent.threadTs === undefined ? `in ${sent.channel}` : `in thread ${sent.threadTs} of ${sent.channel}`;
  return {
    content: `Posted message ${sent.ts} ${where}${warnings.length > 0 ? `; Slack warned: ${warnings.join(", ")}` : ""}`,
    data: sent,
  };
}
