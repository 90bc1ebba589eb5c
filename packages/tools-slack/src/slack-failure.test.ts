import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackHarness, startSlackHarness } from "./fake/slack-harness.js";
import { GENERAL, INACTIVE_TOKEN, REVOKED_TOKEN } from "./fake/workspace.js";

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlackHarness({ perMinute: { "conversations.history": 1 } });
});
afterAll(() => slack.close());

const failureOf = async (name: string, input: unknown, token?: string) => {
  const result =
    name === "slack_list_channels" || name === "slack_read_history"
      ? await slack.seam.call(slack.context(token === undefined ? {} : { token }), name, input)
      : await slack.callApproved(name, input, token);
  if (result.ok) throw new Error(`${name} succeeded`);
  return result.error;
};

describe("Slack's failures, read from the envelope", () => {
  it.each([
    [REVOKED_TOKEN, "token_revoked"],
    [INACTIVE_TOKEN, "account_inactive"],
    ["xoxb-1000000001-2000000002-nobodyknowsthisone000", "invalid_auth"],
  ])(
    "a dead credential (%s) is given up as the 401 it means: the user is asked to connect Slack again",
    async (token) => {
      const before = slack.fake.requests.length;
      const error = await failureOf("slack_list_channels", {}, token);
      expect(slack.fake.requests.length - before).toBe(1);
      expect(slack.fake.requests.at(-1)?.headers.authorization).toBe(`Bearer ${token}`);
      expect(error.code).toBe("auth_required");
      expect(error.retryable).toBe(false);
      expect(error.message).toMatch(/refused the credential "slack" \(401\).*did nothing/);
      expect(error.details).toMatchObject({ credentialRef: "slack", status: 401, credentialRejected: true });
    },
  );

  it("a method's per-minute budget spent is upstream_rate_limited with Slack's Retry-After", async () => {
    const first = await slack.seam.call(slack.context(), "slack_read_history", { channel: GENERAL });
    expect(first.ok).toBe(true);
    const error = await failureOf("slack_read_history", { channel: GENERAL });
    expect(slack.fake.requests.filter((request) => request.method === "conversations.history")).toHaveLength(
      2,
    );
    expect(error.code).toBe("upstream_rate_limited");
    expect(error.retryable).toBe(true);
    // The fake's window is a minute: Slack's Retry-After said how much of it is left.
    expect(error.retryAfterMs).toBeGreaterThanOrEqual(1_000);
    expect(error.retryAfterMs).toBeLessThanOrEqual(60_000);
    expect(error.message).toMatch(/Slack rate-limited the history of channel C012AB3CD.*try again in \d+ s/);
  });

  it("chat.postMessage's rate_limited, sent with HTTP 200, is a rate limit too", async () => {
    slack.fake.failNext("chat.postMessage", { body: { ok: false, error: "rate_limited" } });
    const error = await failureOf("slack_post_message", { channel: GENERAL, text: "again" });
    expect(error.code).toBe("upstream_rate_limited");
    expect(error.retryable).toBe(true);
    expect(error.retryAfterMs).toBeUndefined();
  });

  it("msg_too_long asks for a shorter message", async () => {
    slack.fake.failNext("chat.postMessage", { body: { ok: false, error: "msg_too_long" } });
    const error = await failureOf("slack_post_message", { channel: GENERAL, text: "long" });
    expect(error.code).toBe("invalid_input");
    expect(error.message).toMatch(/too long: shorten the text/);
  });

  it("Slack failing on its side may be retried; a refusal it did not explain is named", async () => {
    slack.fake.failNext("conversations.list", { body: { ok: false, error: "fatal_error" } });
    const fatal = await failureOf("slack_list_channels", {});
    expect(fatal).toMatchObject({ code: "upstream_error", retryable: true });
    expect(fatal.message).toMatch(/Slack failed on the channel list \(fatal_error\); a retry may work/);

    slack.fake.failNext("chat.postMessage", { body: { ok: false, error: "restricted_action" } });
    const refused = await failureOf("slack_post_message", { channel: GENERAL, text: "hi" });
    expect(refused).toMatchObject({ code: "upstream_error", retryable: false });
    expect(refused.message).toBe(`Slack refused the message to channel ${GENERAL}: restricted_action`);
  });

  it("an HTTP error page is a failure by its status, its body kept out of the message", async () => {
    slack.fake.failNext("conversations.list", { status: 503, body: "<html>Service Unavailable</html>" });
    const unavailable = await failureOf("slack_list_channels", {});
    expect(unavailable).toMatchObject({ code: "upstream_error", retryable: true, details: { status: 503 } });
    expect(unavailable.message).toBe("Slack answered HTTP 503 to the channel list; a retry may work");

    slack.fake.failNext("conversations.list", { status: 200, body: "<html>maintenance</html>".repeat(50) });
    const garbled = await failureOf("slack_list_channels", {});
    expect(garbled.code).toBe("upstream_error");
    expect(garbled.message.length).toBeLessThan(200);
  });

  it("egress's own failures come through as egress said them, not wrapped by the SDK", async () => {
    slack.fake.failNext("conversations.list", { delayMs: 3_000, body: { ok: true, channels: [] } });
    const slow = await slack.seam.call(slack.context({ timeoutMs: 500 }), "slack_list_channels", {});
    expect(slow.ok).toBe(false);
    if (slow.ok) return;
    expect(slow.error.code).toBe("timeout");
    expect(slow.error.message).toMatch(/\/api\/conversations\.list timed out/);
  });
});

describe("Slack unreachable", () => {
  it("is egress's retryable upstream_error, naming the URL", async () => {
    const gone = await startSlackHarness();
    await gone.fake.close();
    const result = await gone.seam.call(gone.context(), "slack_list_channels", {});
    await gone.close();
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error).toMatchObject({ code: "upstream_error", retryable: true });
    expect(result.error.message).toMatch(
      /^the request to http:\/\/127\.0\.0\.1:\d+\/api\/conversations\.list failed/,
    );
  });
});
