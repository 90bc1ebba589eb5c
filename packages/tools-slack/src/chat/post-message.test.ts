import { approvalIdOf } from "toolreg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackHarness, startSlackHarness } from "../fake/slack-harness.js";
import { BOT_USER, DESIGN, GENERAL, LEADERSHIP, OLD_LAUNCH, TEST_TOKEN } from "../fake/workspace.js";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlackHarness();
});
afterAll(() => slack.close());

const posts = () => slack.fake.requests.filter((request) => request.method === "chat.postMessage");

describe("slack_post_message", () => {
  it("parks for approval and sends nothing until a person approves", async () => {
    const parked = await slack.seam.call(slack.context(), "slack_post_message", {
      channel: GENERAL,
      text: "Hi",
    });
    expect(approvalIdOf(parked)).toEqual(expect.any(String));
    expect(posts()).toHaveLength(0);
  });

  it("once approved, POSTs chat.postMessage with the token egress injected, and the message is in the channel", async () => {
    const result = await slack.callApproved("slack_post_message", {
      channel: GENERAL,
      text: "Release *3.2* is out: <https://example.com/notes|notes>",
    });
    if (!result.ok) throw new Error(`${result.error.code}: ${result.error.message}`);
    const sent = posts().at(-1);
    expect(posts()).toHaveLength(1);
    expect(sent?.path).toBe("/api/chat.postMessage");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.args).toEqual({
      channel: GENERAL,
      text: "Release *3.2* is out: <https://example.com/notes|notes>",
      mrkdwn: "true",
    });
    const data = result.data as { channel: string; ts: string; warnings?: string[] };
    expect(data.channel).toBe(GENERAL);
    expect(data.ts).toMatch(/^\d{10}\.\d{6}$/);
    expect(data.warnings).toBeUndefined();
    expect(result.content).toBe(`Posted message ${data.ts} in ${GENERAL}`);
    const newest = slack.fake.workspace.history.get(GENERAL)?.at(-1);
    expect(newest).toMatchObject({ ts: data.ts, user: BOT_USER });
  });

  it("sends mrkdwn=false when asked to post the text as typed", async () => {
    const result = await slack.callApproved("slack_post_message", {
      channel: LEADERSHIP,
      text: "*not bold*",
      mrkdwn: false,
    });
    expect(result.ok).toBe(true);
    expect(posts().at(-1)?.args).toMatchObject({ channel: LEADERSHIP, mrkdwn: "false" });
  });

  it("tells the model Slack's warning on a post that went through", async () => {
    slack.fake.warnNext("chat.postMessage", "superfluous_charset");
    const result = await slack.callApproved("slack_post_message", { channel: GENERAL, text: "Warned" });
    if (!result.ok) throw new Error(result.error.message);
    expect((result.data as { warnings?: string[] }).warnings).toEqual(["superfluous_charset"]);
    expect(result.content).toMatch(/Slack warned: superfluous_charset$/);
  });

  it("says an archived channel takes no posts", async () => {
    const result = await slack.callApproved("slack_post_message", { channel: OLD_LAUNCH, text: "Anyone?" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.message).toMatch(new RegExp(`message to channel ${OLD_LAUNCH} is archived`));
    expect(result.error.details).toMatchObject({ slackError: "is_archived" });
  });

  it("says to invite the app where it is not a member", async () => {
    const result = await slack.callApproved("slack_post_message", { channel: DESIGN, text: "Hello" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/not a member.*invite it/);
  });

  it("answers Slack's 429 with when to come back, and does not post again on its own", async () => {
    slack.fake.failNext("chat.postMessage", {
      status: 429,
      headers: { "retry-after": "30" },
      body: { ok: false, error: "ratelimited" },
    });
    const before = posts().length;
    const result = await slack.callApproved("slack_post_message", { channel: GENERAL, text: "Busy?" });
    expect(posts().length - before).toBe(1);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_rate_limited");
    expect(result.error.retryable).toBe(true);
    expect(result.error.retryAfterMs).toBe(30_000);
    expect(result.error.message).toMatch(/rate-limited the message to channel .*try again in 30 s/);
  });

  it("refuses what Slack would refuse or cut, and what is not a channel id, before parking or sending", async () => {
    const before = posts().length;
    for (const input of [
      { channel: "#general", text: "hi" },
      { channel: "C012AB3CD/../../oauth.v2.access", text: "hi" },
      { channel: GENERAL, text: "   \n" },
      { channel: GENERAL, text: "x".repeat(40_001) },
      { channel: GENERAL },
    ]) {
      const result = await slack.seam.call(slack.context(), "slack_post_message", input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    expect(posts().length).toBe(before);
  });
});
