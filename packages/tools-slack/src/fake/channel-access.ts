/**
 * @module How the fake's methods find a channel as the token's bot sees it. Slack answers a private
 * channel the bot is not in exactly as one that does not exist (`channel_not_found`), and a public one it
 * has not joined with `not_in_channel` (docs.slack.dev/reference/methods/conversations.history and
 * chat.postMessage, Errors).
 */
import type { FakeChannel, FakeWorkspace } from "./workspace.js";

export type ChannelAccess = { channel: FakeChannel } | { error: "channel_not_found" | "not_in_channel" };

export function reachChannel(workspace: FakeWorkspace, id: string | undefined): ChannelAccess {
  const channel = workspace.channels.find((candidate) => candidate.id === id);
  if (!channel || (channel.is_private && !channel.is_member)) return { error: "channel_not_found" };
  if (!channel.is_member) return { error: "not_in_channel" };
  return { channel };
}

/** The scope reading or writing a conversation needs, by the kind its id starts with. */
export function scopeByKind(id: string | undefined, scopes: { C: string; G: string; D: string }): string[] {
  const kind = id?.[0];
  return kind === "C" || kind === "G" || kind === "D" ? [scopes[kind]] : [];
}
