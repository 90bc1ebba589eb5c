/** @module `slack_reply_in_thread`: a reply under an existing message. */
import { z } from "zod";
import { slackTool } from "../slack-env.js";
import { channelField, messageTextField, messageTsField, mrkdwnField } from "../slack-inputs.js";
import { sendMessage } from "./send-message.js";

export const replyInThread = slackTool({
  name: "slack_reply_in_thread",
  description:
    "Replies in the thread of a Slack message, as the connected app (or user). thread_ts is the ts of the thread's first message (as slack_read_history gives it), never a reply's: Slack accepts an unknown ts without error and the reply is then seen nowhere. reply_broadcast also shows the reply in the channel. The text is Slack mrkdwn unless mrkdwn is false.",
  category: "communication",
  effect: "external-write",
  cost: "io",
  oauthScopes: ["chat:write"],
  input: z.object({
    channel: channelField,
    thread_ts: messageTsField.describe(
      "the ts of the message that starts the thread, e.g. 1503435956.000247",
    ),
    text: messageTextField,
    reply_broadcast: z
      .boolean()
      .default(false)
      .describe("also show the reply in the channel, to everyone in it (default false)"),
    mrkdwn: mrkdwnField,
  }),
  run({ channel, thread_ts, text, reply_broadcast, mrkdwn }, context, env) {
    return sendMessage(
      { channel, text, mrkdwn, thread_ts, reply_broadcast },
      `the reply in thread ${thread_ts} of channel ${channel}`,
      context,
      env,
    );
  },
});
