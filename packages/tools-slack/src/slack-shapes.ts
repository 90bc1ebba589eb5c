/**
 * @module Slack's payloads cut to what a model acts on. A conversation object carries some forty fields
 * and a message its blocks, reactions and files; a model needs ids, names, authors, text and threads.
 */
import type {
  ConversationsHistoryResponse,
  ConversationsListResponse,
  WebAPICallResult,
} from "@slack/web-api";

type SlackChannel = NonNullable<ConversationsListResponse["channels"]>[number];
type SlackMessage = NonNullable<ConversationsHistoryResponse["messages"]>[number];

/**
 * Characters of one message's text a read returns: Slack's own advice for a message's length. A longer
 * message is cut and says so, so one pasted log cannot crowd out the rest of the history.
 */
export const MESSAGE_TEXT_CAP = 4_000;

export function channelSummary(channel: SlackChannel) {
  return {
    id: channel.id ?? "",
    name: channel.name ?? "",
    isPrivate: channel.is_private === true,
    isArchived: channel.is_archived === true,
    /** Whether the token's bot or user is in it: reading and posting need that. */
    isMember: channel.is_member === true,
    members: channel.num_members ?? null,
    topic: channel.topic?.value ?? "",
    purpose: channel.purpose?.value ?? "",
  };
}

export function messageSummary(message: SlackMessage) {
  const text = message.text ?? "";
  const cut = text.length > MESSAGE_TEXT_CAP;
  return {
    ts: message.ts ?? "",
    /** The author: a user id, or for an app's message its bot id. */
    user: message.user ?? message.bot_id ?? null,
    text: cut ? text.slice(0, MESSAGE_TEXT_CAP) : text,
    ...(cut ? { textTruncated: true } : {}),
    /** Replies in this message's thread; the replies themselves are not part of the channel's history. */
    replyCount: message.reply_count ?? 0,
    ...(message.thread_ts !== undefined ? { threadTs: message.thread_ts } : {}),
    ...(message.subtype !== undefined ? { subtype: message.subtype } : {}),
  };
}

/**
 * Slack's warnings on a call that succeeded: the top-level `warning` (comma-separated when several) and
 * `response_metadata.warnings`, once each. They say what Slack assumed or changed (`message_truncated`).
 */
export function warningsOf(result: WebAPICallResult & { warning?: string }): string[] {
  const listed = [...(result.warning?.split(",") ?? []), ...(result.response_metadata?.warnings ?? [])];
  return [...new Set(listed.map((warning) => warning.trim()).filter((warning) => warning !== ""))];
}
