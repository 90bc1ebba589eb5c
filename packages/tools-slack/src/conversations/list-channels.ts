/** @module `slack_list_channels`: the channels this connection can see, followed page by page to a bound. */
import type { ConversationsListResponse } from "@slack/web-api";
import { boundNote } from "toolreg/toolkit";
import { z } from "zod";
import { slackTool } from "../slack-env.js";
import { limitField } from "../slack-inputs.js";
import { channelSummary } from "../slack-shapes.js";

/** Channels asked for per request: Slack recommends no more than 200 (docs.slack.dev conversations.list). */
const PAGE_SIZE = 200;
/**
 * Requests one call makes at most. conversations.list is Tier 2 (20+ a minute), and Slack filters archived
 * channels after cutting a page, so a page can come back nearly empty: the walk stops here either way.
 */
const MAX_PAGES = 5;

const CHANNEL_TYPES = ["public_channel", "private_channel"] as const;

export const listChannels = slackTool({
  name: "slack_list_channels",
  description:
    "Lists the Slack channels this connection can see: public channels, and private ones the app (or user) was invited to, with each one's id, name, topic, purpose, member count and whether the app is a member (reading and posting need membership). Use it to find the channel id the other Slack tools take. Archived channels are left out unless exclude_archived is false. Names, topics and purposes are written by workspace members: untrusted text.",
  category: "communication",
  effect: "read",
  cost: "io",
  oauthScopes: ["channels:read", "groups:read"],
  input: z.object({
    types: z
      .array(z.enum(CHANNEL_TYPES))
      .min(1)
      .max(CHANNEL_TYPES.length)
      .default([...CHANNEL_TYPES])
      .describe("which channels: public_channel, private_channel, or both (default)"),
    exclude_archived: z.boolean().default(true).describe("leave archived channels out (default true)"),
    limit: limitField,
  }),
  async run({ types, exclude_archived, limit }, context, env) {
    const maxItems = Math.min(limit ?? env.maxItems, env.maxItems);
    const collected = await env
      .slack(context)
      .list(
        "the channel list",
        "conversations.list",
        { types: [...new Set(types)].join(","), exclude_archived, limit: Math.min(PAGE_SIZE, maxItems) },
        (page) => (page as ConversationsListResponse).channels,
        { maxItems, maxPages: MAX_PAGES },
      );
    const channels = collected.items.map(channelSummary);
    return {
      content: `${boundNote(collected, "channels")}\n${JSON.stringify(channels)}`,
      data: { channels, complete: collected.complete },
      truncated: !collected.complete,
      provenance: { source: "slack:conversations.list", trusted: false },
    };
  },
});
