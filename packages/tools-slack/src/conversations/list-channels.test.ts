import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type SlackHarness, startSlackHarness } from "../fake/slack-harness.js";
import {
  DESIGN,
  GENERAL,
  LEADERSHIP,
  OLD_LAUNCH,
  SECRET,
  TEST_TOKEN,
  WRITE_ONLY_TOKEN,
} from "../fake/workspace.js";

interface Listed {
  channels: {
    id: string;
    name: string;
    isPrivate: boolean;
    isArchived: boolean;
    isMember: boolean;
    topic: string;
  }[];
  complete: boolean;
}

let slack: SlackHarness;
beforeAll(async () => {
  slack = await startSlackHarness();
});
afterAll(() => slack.close());

describe("slack_list_channels", () => {
  it("POSTs conversations.list form-encoded with the token egress injected, and lists what the bot can see", async () => {
    const result = await slack.seam.call(slack.context(), "slack_list_channels", {});
    expect(result.ok).toBe(true);
    const sent = slack.fake.requests.at(-1);
    expect(sent?.httpMethod).toBe("POST");
    expect(sent?.path).toBe("/api/conversations.list");
    expect(sent?.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(sent?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
    expect(sent?.args).toEqual({
      types: "public_channel,private_channel",
      exclude_archived: "true",
      limit: "100",
    });
    if (!result.ok) return;
    const { channels, complete } = result.data as Listed;
    expect(complete).toBe(true);
    const ids = channels.map((channel) => channel.id);
    expect(ids).toContain(GENERAL);
    expect(ids).toContain(DESIGN);
    expect(channels.find((channel) => channel.id === LEADERSHIP)).toMatchObject({
      isPrivate: true,
      isMember: true,
    });
    expect(channels.find((channel) => channel.id === DESIGN)).toMatchObject({ isMember: false });
    expect(channels.find((channel) => channel.id === GENERAL)?.topic).toBe(
      "Company-wide announcements and work-based matters",
    );
    // Slack lists a private channel only to its members, and exclude_archived left the archived one out.
    expect(ids).not.toContain(SECRET);
    expect(ids).not.toContain(OLD_LAUNCH);
    // Names and topics are members' words.
    expect(result.provenance).toEqual({ source: "slack:conversations.list", trusted: false });
  });

  it("passes the types and exclude_archived it was given", async () => {
    const result = await slack.seam.call(slack.context(), "slack_list_channels", {
      types: ["public_channel"],
      exclude_archived: false,
    });
    expect(slack.fake.requests.at(-1)?.args).toMatchObject({
      types: "public_channel",
      exclude_archived: "false",
    });
    if (!result.ok) throw new Error(result.error.message);
    const ids = (result.data as Listed).channels.map((channel) => channel.id);
    expect(ids).toContain(OLD_LAUNCH);
    expect(ids).not.toContain(LEADERSHIP);
  });

  it("says a missing scope by name", async () => {
    const result = await slack.seam.call(
      slack.context({ token: WRITE_ONLY_TOKEN }),
      "slack_list_channels",
      {},
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe("upstream_error");
    expect(result.error.retryable).toBe(false);
    expect(result.error.message).toMatch(
      /lacks the scope channels:read for the channel list \(it has chat:write\)/,
    );
    expect(result.error.details).toMatchObject({ slackError: "missing_scope", needed: "channels:read" });
  });

  it("refuses a channel type it has no scope for, before any request", async () => {
    const before = slack.fake.requests.length;
    for (const input of [{ types: ["im"] }, { types: [] }, { limit: 0 }, { limit: 1001 }]) {
      const result = await slack.seam.call(slack.context(), "slack_list_channels", input);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.code).toBe("invalid_input");
    }
    expect(slack.fake.requests.length).toBe(before);
  });
});

describe("slack_list_channels pagination", () => {
  let paged: SlackHarness;
  beforeAll(async () => {
    paged = await startSlackHarness({ extraChannels: 240, maxItems: 1000 });
  });
  afterAll(() => paged.close());

  it("follows next_cursor page by page until Slack's empty cursor", async () => {
    const result = await paged.seam.call(paged.context(), "slack_list_channels", {
      types: ["public_channel"],
    });
    if (!result.ok) throw new Error(result.error.message);
    const { channels, complete } = result.data as Listed;
    // 4 public channels (one archived, left out) and 240 more: two pages of at most 200.
    expect(channels).toHaveLength(243);
    expect(complete).toBe(true);
    const pages = paged.fake.requests.filter((request) => request.method === "conversations.list");
    expect(pages.map((page) => page.args.limit)).toEqual(["200", "200"]);
    expect(pages[0]?.args.cursor).toBeUndefined();
    expect(pages[1]?.args.cursor).toMatch(/^[A-Za-z0-9+/=]+$/);
    expect(new Set(channels.map((channel) => channel.id)).size).toBe(243);
  });

  it("stops at the limit, asks for no more pages, and says the list goes on", async () => {
    const before = paged.fake.requests.length;
    const result = await paged.seam.call(paged.context(), "slack_list_channels", {
      limit: 7,
      exclude_archived: false,
    });
    if (!result.ok) throw new Error(result.error.message);
    expect(paged.fake.requests.length - before).toBe(1);
    expect(paged.fake.requests.at(-1)?.args.limit).toBe("7");
    expect((result.data as Listed).channels).toHaveLength(7);
    expect((result.data as Listed).complete).toBe(false);
    expect(result.truncated).toBe(true);
    expect(result.content).toMatch(/the first 7 channels; there are more/);
  });

  it("reads on past a page Slack thinned: archived channels are dropped after the page is cut", async () => {
    const before = paged.fake.requests.length;
    const result = await paged.seam.call(paged.context(), "slack_list_channels", { limit: 7 });
    if (!result.ok) throw new Error(result.error.message);
    const channels = (result.data as Listed).channels;
    // The first page of 7 held the archived channel, so Slack sent 6 and a cursor; a second request filled the 7.
    expect(paged.fake.requests.length - before).toBe(2);
    expect(channels).toHaveLength(7);
    expect(channels.map((channel) => channel.id)).not.toContain(OLD_LAUNCH);
  });
});

describe("slack_list_channels page bound", () => {
  let sparse: SlackHarness;
  beforeAll(async () => {
    sparse = await startSlackHarness({ extraChannels: 100, extraArchived: true });
  });
  afterAll(() => sparse.close());

  it("gives up after five requests when Slack's pages come back emptied by exclude_archived", async () => {
    const result = await sparse.seam.call(sparse.context(), "slack_list_channels", { limit: 7 });
    if (!result.ok) throw new Error(result.error.message);
    expect(sparse.fake.requests.filter((request) => request.method === "conversations.list")).toHaveLength(5);
    expect((result.data as Listed).channels.map((channel) => channel.name)).toEqual([
      "general",
      "random",
      "leadership",
      "design",
    ]);
    expect((result.data as Listed).complete).toBe(false);
    expect(result.content).toMatch(/the first 4 channels; there are more/);
  });
});
