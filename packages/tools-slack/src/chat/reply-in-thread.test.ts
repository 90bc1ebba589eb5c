import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackHarness, startSlackHarness } from "../fake/slack-harness.js";
import { GENERAL, TEST_TOKEN, THREAD_PARENT_TS } from "../fake/workspace.js";

interface History {
  messages: { ts: string; replyCount: number; threadTs?: string; subtype?: string; text: string }[];
}

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlackHarness();
});
afterAll(() => slack.close());

const replies = () => slack.fake.requests.filter((request) => request.method === "chat.postMessage");
const history = async () => {
  const result = await slack.seam.call(slack.context(), "slack_read_history", { channel: GENERAL });
  if (!result.ok) throw new Error(result.error.message);
  return (result.data as History).messages;
};

describe("slack_reply_in_thread", () => {
  it("POSTs chat.postMessage with thread_ts; the reply joins the thread, not the channel", async () => {
    const result = await slack.callApproved("slack_reply_in_thread", {
      channel: GENERAL,
      thread_ts: THREAD_PARENT_TS,
      text: "Me, from now on.",
    });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    const sent = replies().at(-1);
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.args).toEqual({
      channel: GENERAL,
      text: "Me, from now on.",
      mrkdwn: "true",
      thread_ts: THREAD_PARENT_TS,
      reply_broadcast: "false",
    });
    const data = result.data as { ts: string; threadTs: string };
    expect(data.threadTs).toBe(THREAD_PARENT_TS);
    expect(result.content).toBe(`Posted message ${data.ts} in thread ${THREAD_PARENT_TS} of ${GENERAL}`);
    const messages = await history();
    expect(messages.find((message) => message.ts === THREAD_PARENT_TS)?.replyCount).toBe(3);
    expect(messages.map((message) => message.ts)).not.toContain(data.ts);
  });

  it("with reply_broadcast, also shows the reply in the channel", async () => {
    const result = await slack.callApproved("slack_reply_in_thread", {
      channel: GENERAL,
      thread_ts: THREAD_PARENT_TS,
      text: "Everyone: the checklist has an owner.",
      reply_broadcast: true,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(replies().at(-1)?.args.reply_broadcast).toBe("true");
    const newest = (await history())[0];
    expect(newest).toMatchObject({
      ts: (result.data as { ts: string }).ts,
      subtype: "thread_broadcast",
      threadTs: THREAD_PARENT_TS,
    });
  });

  it("refuses a thread_ts that is not a Slack ts before parking or sending", async () => {
    const before = replies().length;
    for (const thread_ts of [
      "0",
      "1700000100",
      "1700000100.2",
      "1700000100.000200&reply_broadcast=true",
      "",
    ]) {
      const result = await slack.seam.call(slack.context(), "slack_reply_in_thread", {
        channel: GENERAL,
        thread_ts,
        text: "hi",
      });
      expect(result.ok, thread_ts).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    expect(replies().length).toBe(before);
  });
});
