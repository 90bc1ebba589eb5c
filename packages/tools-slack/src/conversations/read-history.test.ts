import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackHarness, startSlackHarness } from "../fake/slack-harness.js";
import { DESIGN, GENERAL, SECRET, TEST_TOKEN, THREAD_PARENT_TS } from "../fake/workspace.js";

interface History {
  channel: string;
  messages: {
    ts: string;
    user: string | null;
    text: string;
    replyCount: number;
    threadTs?: string;
    subtype?: string;
  }[];
  hasMore: boolean;
  nextCursor?: string;
}

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlackHarness({ maxItems: 50 });
});
afterAll(() => slack.close());

const read = async (input: Record<string, unknown>) => {
  const result = await slack.seam.call(slack.context(), "slack_read_history", input);
  if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
  return { result, history: result.data as History };
};

describe("slack_read_history", () => {
  it("POSTs conversations.history with the token egress injected; messages newest first, untrusted", async () => {
    const { result, history } = await read({ channel: GENERAL });
    const sent = slack.fake.requests.at(-1);
    expect(sent?.path).toBe("/api/conversations.history");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.args).toEqual({ channel: GENERAL, limit: "50" });
    expect(history.messages.map((message) => message.ts)).toEqual([
      "1700000400.000700",
      "1700000300.000600",
      "1700000200.000500",
      THREAD_PARENT_TS,
      "1700000000.000100",
    ]);
    expect(history.messages[3]).toEqual({
      ts: THREAD_PARENT_TS,
      user: "U061F7AUR",
      text: "Who owns the launch checklist?",
      replyCount: 2,
      threadTs: THREAD_PARENT_TS,
    });
    // An app's message is told by its bot id and subtype.
    expect(history.messages[2]).toMatchObject({ user: "B0DEPLOYS1", subtype: "bot_message", replyCount: 0 });
    expect(history.hasMore).toBe(false);
    expect(history.nextCursor).toBeUndefined();
    expect(result.provenance).toEqual({
      source: `slack:conversations.history?channel=${GENERAL}`,
      trusted: false,
    });
  });

  it("narrows to oldest/latest, exclusive unless inclusive", async () => {
    const window = { channel: GENERAL, oldest: "1700000100.000200", latest: "1700000300.000600" };
    const exclusive = await read(window);
    expect(exclusive.history.messages.map((message) => message.ts)).toEqual(["1700000200.000500"]);
    const inclusive = await read({ ...window, inclusive: true });
    expect(slack.fake.requests.at(-1)?.args).toMatchObject({ ...window, inclusive: "true" });
    expect(inclusive.history.messages).toHaveLength(3);
  });

  it("reads one page per call and goes on from the nextCursor it gave", async () => {
    const before = slack.fake.requests.length;
    const first = await read({ channel: GENERAL, limit: 2 });
    expect(slack.fake.requests.length - before).toBe(1);
    expect(first.history.messages.map((message) => message.ts)).toEqual([
      "1700000400.000700",
      "1700000300.000600",
    ]);
    expect(first.history.hasMore).toBe(true);
    expect(first.history.nextCursor).toEqual(expect.any(String));
    const second = await read({ channel: GENERAL, limit: 2, cursor: first.history.nextCursor });
    expect(slack.fake.requests.at(-1)?.args.cursor).toBe(first.history.nextCursor);
    expect(second.history.messages.map((message) => message.ts)).toEqual([
      "1700000200.000500",
      THREAD_PARENT_TS,
    ]);
  });

  it("never asks Slack for more than the deployment's maxItems", async () => {
    await read({ channel: GENERAL, limit: 900 });
    expect(slack.fake.requests.at(-1)?.args.limit).toBe("50");
  });

  it("says to invite the app to a channel it is not in", async () => {
    const result = await slack.seam.call(slack.context(), "slack_read_history", { channel: DESIGN });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(new RegExp(`history of channel ${DESIGN}.*invite it`));
    expect(result.error.details).toMatchObject({ slackError: "not_in_channel" });
  });

  it("says a private channel it was not invited to may as well not exist", async () => {
    const result = await slack.seam.call(slack.context(), "slack_read_history", { channel: SECRET });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.message).toMatch(/found no channel.*not invited to.*slack_list_channels/);
    expect(result.error.details).toMatchObject({ slackError: "channel_not_found" });
  });

  it("refuses what is not a Slack channel id, a time or a cursor, before any request", async () => {
    const before = slack.fake.requests.length;
    for (const input of [
      { channel: "#general" },
      { channel: "general" },
      { channel: "c012ab3cd" },
      { channel: "C012AB3CD&channel=C061EG9T2" },
      { channel: "../../api/chat.postMessage" },
      { channel: GENERAL, oldest: "yesterday" },
      { channel: GENERAL, oldest: "1700000300", latest: "1700000100" },
      { channel: GENERAL, cursor: "a&b=c" },
      { channel: GENERAL, limit: 0 },
    ]) {
      const result = await slack.seam.call(slack.context(), "slack_read_history", input);
      expect(result.ok, JSON.stringify(input)).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    expect(slack.fake.requests.length).toBe(before);
  });
});
