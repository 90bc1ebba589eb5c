/** @module `slack_post_message`: a new message in a channel. */
import { z } from "zod";
import { slackTool } from "../slack-env.js";
import { channelField, messageTextField, mrkdwnField } from "../slack-inputs.js";
import { sendMessage } from "./send-message.js";

export const postMessage = slackTool({
  name: "slack_post_message",
  description:
    "Posts a new message to a Slack channel as the connected app (or user), seen by everyone in the channel. Use slack_reply_in_thread to answer a message instead. The app must be a member of the channel (slack_list_channels says); the text is Slack mrkdwn unless mrkdwn is false. Returns the message's ts.",
  category: "communication",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["chat:write"],
  input: z.object({ channel: channelField, text: messageTextField, mrkdwn: mrkdwnField }),
  run({ channel, text, mrkdwn }, context, env) {
    return sendMessage({ channel, text, mrkdwn }, `the message to channel ${channel}`, context, env);
  },
});
