/**
 * @module The fake's chat.postMessage, as Slack documents it (docs.slack.dev/reference/methods/chat.postMessage):
 * - errors in order: the channel (`channel_not_found`, `not_in_channel`), `is_archived`, `no_text`;
 * - text past 40,000 characters is cut and posted with the warning `message_truncated`
 *   (api.slack.com/changelog/2018-04-truncating-really-long-messages);
 * - with thread_ts the message is a reply: the parent's reply_count grows and the reply stays out of the
 *   channel's history ("conversations.history returns only parent messages": docs.slack.dev/reference/methods/
 *   conversations.replies) unless reply_broadcast, which shows it there too as subtype thread_broadcast
 *   (docs.slack.dev/reference/events/message/thread_broadcast);
 * - a thread_ts that is not a ts is `invalid_thread_ts` (seen from Slack in jenkinsci/slack-plugin#584), and
 *   a well-formed one with no such parent is accepted, the reply then seen nowhere
 *   (slackapi/python-slack-sdk#840);
 * - the answer is `{ ok, channel, ts, message }`, the message as the app's bot wrote it.
 */
import { reachChannel } from "./channel-access.js";
import type { FakeMethods } from "./slack-fake.js";
import { APP_ID, BOT_ID, BOT_USER, type FakeMessage, TEAM_ID } from "./workspace.js";

const TEXT_LIMIT = 40_000;

export const chatMethods: FakeMethods = {
  "chat.postMessage": {
    scopes: () => ["chat:write"],
    answer({ args, workspace }) {
      const access = reachChannel(workspace, args.channel);
      if ("error" in access) return { ok: false, error: access.error };
      const { channel } = access;
      if (channel.is_archived) return { ok: false, error: "is_archived" };
      const typed = args.text ?? "";
      if (typed.trim() === "") return { ok: false, error: "no_text" };
      const threadTs = args.thread_ts;
      if (threadTs !== undefined && !/^\d+\.\d+$/.test(threadTs))
        return { ok: false, error: "invalid_thread_ts" };

      const text = typed.slice(0, TEXT_LIMIT);
      const message: FakeMessage = {
        type: "message",
        ts: workspace.nextTs(),
        text,
        user: BOT_USER,
        bot_id: BOT_ID,
        app_id: APP_ID,
        team: TEAM_ID,
      };
      const history = workspace.history.get(channel.id) ?? [];
      workspace.history.set(channel.id, history);
      if (threadTs === undefined) {
        history.push(message);
      } else {
        const parent = history.find(
          (candidate) => candidate.ts === threadTs && candidate.subtype !== "thread_broadcast",
        );
        const reply: FakeMessage = {
          ...message,
          thread_ts: threadTs,
          ...(parent?.user ? { parent_user_id: parent.user } : {}),
        };
        if (parent) {
          parent.thread_ts = threadTs;
          parent.reply_count = (parent.reply_count ?? 0) + 1;
          parent.latest_reply = reply.ts;
          workspace.replies.set(threadTs, [...(workspace.replies.get(threadTs) ?? []), reply]);
          if (args.reply_broadcast === "true") history.push({ ...reply, subtype: "thread_broadcast" });
        }
        Object.assign(message, reply);
      }
      const truncated = typed.length > TEXT_LIMIT;
      return {
        ok: true,
        channel: channel.id,
        ts: message.ts,
        message,
        ...(truncated
          ? {
              warning: "message_truncated",
              response_metadata: {
                messages: [
                  "[WARN] Your message was truncated but still posted. The `text` field accepts up to 40,000 characters.",
                ],
                warnings: ["message_truncated"],
              },
            }
          : {}),
      };
    },
  },
};
