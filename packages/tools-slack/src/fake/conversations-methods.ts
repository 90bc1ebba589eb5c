/**
 * @module The fake's conversations.list and conversations.history, as Slack documents them:
 * - conversations.list (docs.slack.dev/reference/methods/conversations.list): `types` comma-separated,
 *   public_channel by default; `limit` 100 by default and no larger than 1000; filters such as
 *   exclude_archived are applied after a virtual page is cut, so a page may hold fewer than `limit` and still
 *   have a next_cursor; the last page's next_cursor is "" (docs.slack.dev/apis/web-api/pagination).
 *   Private channels are listed only to their members.
 * - conversations.history (docs.slack.dev/reference/methods/conversations.history): top-level messages
 *   newest first, thread replies left out unless broadcast (it "returns only parent messages":
 *   docs.slack.dev/reference/methods/conversations.replies); `oldest`/`latest` exclusive unless `inclusive`;
 *   `has_more` and a next_cursor while more remain; a cursor like Slack's own, base64 of `next_ts:…`.
 */
import { reachChannel, scopeByKind } from "./channel-access.js";
import type { FakeMethods } from "./slack-fake.js";
import type { FakeChannel } from "./workspace.js";

const READ_SCOPE: Record<string, string> = {
  public_channel: "channels:read",
  private_channel: "groups:read",
  mpim: "mpim:read",
  im: "im:read",
};

const typesOf = (args: Record<string, string>) => (args.types ?? "public_channel").split(",");

/** A ts or a time bound in microseconds, exactly: doubles lose the last digit of some ts. */
function micros(value: string): bigint | undefined {
  const match = /^(\d+)(?:\.(\d{1,6}))?$/.exec(value);
  return match ? BigInt(match[1] ?? "0") * 1_000_000n + BigInt((match[2] ?? "").padEnd(6, "0")) : undefined;
}

/** `limit` as Slack reads it: its default when absent, `invalid_limit` (undefined) past the documented bounds. */
function parseLimit(value: string | undefined, fallback: number, max: number): number | undefined {
  if (value === undefined) return fallback;
  const limit = Number(value);
  return Number.isInteger(limit) && limit >= 1 && limit <= max ? limit : undefined;
}

const encode = (text: string) => Buffer.from(text).toString("base64");
const decode = (cursor: string) => Buffer.from(cursor, "base64").toString("utf8");

/** A conversation object as conversations.list returns one (docs.slack.dev/reference/objects/conversation-object). */
function conversationObject(channel: FakeChannel) {
  return {
    id: channel.id,
    name: channel.name,
    is_channel: !channel.is_private,
    is_group: channel.is_private,
    is_im: false,
    is_mpim: false,
    is_private: channel.is_private,
    created: 1449252889,
    is_archived: channel.is_archived,
    is_general: channel.name === "general",
    unlinked: 0,
    name_normalized: channel.name,
    is_shared: false,
    is_org_shared: false,
    is_ext_shared: false,
    is_pending_ext_shared: false,
    pending_shared: [],
    creator: "U012A3CDE",
    is_member: channel.is_member,
    topic: { value: channel.topic, creator: "", last_set: 0 },
    purpose: { value: channel.purpose, creator: "", last_set: 0 },
    previous_names: [],
    num_members: channel.num_members,
  };
}

export const conversationMethods: FakeMethods = {
  "conversations.list": {
    // "channels:, groups:, im: or mpim: scopes corresponding to the conversation type" (the method's Facts).
    scopes: (args) => typesOf(args).flatMap((type) => READ_SCOPE[type] ?? []),
    answer({ args, workspace }) {
      const types = typesOf(args);
      if (types.some((type) => READ_SCOPE[type] === undefined)) return { ok: false, error: "invalid_types" };
      const limit = parseLimit(args.limit, 100, 1000);
      if (limit === undefined) return { ok: false, error: "invalid_limit" };
      const listed = workspace.channels.filter(
        (channel) =>
          (types.includes("public_channel") && !channel.is_private) ||
          (types.includes("private_channel") && channel.is_private && channel.is_member),
      );
      let start = 0;
      if (args.cursor) {
        const id = /^team:(.+)$/.exec(decode(args.cursor))?.[1];
        start = listed.findIndex((channel) => channel.id === id);
        if (start < 0) return { ok: false, error: "invalid_cursor" };
      }
      const page = listed.slice(start, start + limit);
      const kept = args.exclude_archived === "true" ? page.filter((channel) => !channel.is_archived) : page;
      const next = listed[start + limit];
      return {
        ok: true,
        channels: kept.map(conversationObject),
        response_metadata: { next_cursor: next ? encode(`team:${next.id}`) : "" },
      };
    },
  },

  "conversations.history": {
    scopes: (args) =>
      scopeByKind(args.channel, { C: "channels:history", G: "groups:history", D: "im:history" }),
    answer({ args, workspace }) {
      const access = reachChannel(workspace, args.channel);
      if ("error" in access) return { ok: false, error: access.error };
      const latest = args.latest === undefined ? undefined : micros(args.latest);
      if (args.latest !== undefined && latest === undefined) return { ok: false, error: "invalid_ts_latest" };
      const oldest = micros(args.oldest ?? "0");
      if (oldest === undefined) return { ok: false, error: "invalid_ts_oldest" };
      // 999 at most, as Slack's SDK documents this method's limit.
      const limit = parseLimit(args.limit, 100, 999);
      if (limit === undefined) return { ok: false, error: "invalid_limit" };
      const inclusive = args.inclusive === "true" || args.inclusive === "1";
      let before = latest;
      if (args.cursor) {
        // The cursor holds the last message's ts as microseconds: base64("next_ts:1512085861000543").
        const digits = /^next_ts:(\d{16})$/.exec(decode(args.cursor))?.[1];
        if (digits === undefined) return { ok: false, error: "invalid_cursor" };
        before = BigInt(digits);
      }
      const inWindow = (workspace.history.get(access.channel.id) ?? [])
        .filter((message) => {
          const at = micros(message.ts) ?? 0n;
          const afterOldest = inclusive ? at >= oldest : at > oldest;
          const beforeLatest =
            before === undefined || (inclusive && !args.cursor ? at <= before : at < before);
          return afterOldest && beforeLatest;
        })
        .reverse();
      const page = inWindow.slice(0, limit);
      const more = inWindow.length > limit;
      const last = page.at(-1);
      return {
        ok: true,
        messages: page,
        has_more: more,
        pin_count: 0,
        ...(more && last
          ? { response_metadata: { next_cursor: encode(`next_ts:${last.ts.replace(".", "")}`) } }
          : {}),
      };
    },
  },
};
