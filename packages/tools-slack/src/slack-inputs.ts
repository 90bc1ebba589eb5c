/**
 * @module Input fields the Slack tools share, checked to Slack's own forms before any request: a value that
 * is not a Slack id or timestamp (a `#name`, a path, a second parameter) is refused here rather than sent.
 */
import { z } from "zod";

/**
 * A conversation id: C for a public channel, G for a private one or a group DM, D for a DM, then upper-case
 * letters and digits (C012AB3CD). Slack's ids are 9 to 11 characters today; the bound leaves room to grow.
 */
export const channelField = z
  .string()
  .regex(
    /^[CGD][A-Z0-9]{8,20}$/,
    "a Slack channel id such as C012AB3CD (find it with slack_list_channels); a #name is not an id",
  )
  .describe("the channel's id, e.g. C012AB3CD, as slack_list_channels gives it");

/** A message's `ts`: seconds and microseconds, Slack's id for a message within its channel. */
export const messageTsField = z
  .string()
  .regex(/^\d{10}\.\d{6}$/, "a Slack message ts such as 1503435956.000247");

/** A point in time for a history window: Unix seconds, with up to six decimals as Slack's ts have. */
export const timeBoundField = z
  .string()
  .regex(
    /^\d{1,10}(?:\.\d{1,6})?$/,
    "Unix seconds such as 1700000000 or a message ts such as 1700000000.000100",
  );

/**
 * Message text. Slack truncates past 40,000 characters (and answers msg_too_long for some); refusing here
 * keeps a truncated message from being posted. Slack refuses text with nothing in it (`no_text`).
 */
export const messageTextField = z
  .string()
  .max(40_000, "Slack takes at most 40,000 characters of text; it recommends under 4,000")
  .refine((text) => text.trim().length > 0, "the text is empty")
  .describe(
    "the message, in Slack's mrkdwn (*bold*, _italic_, <https://example.com|links>, <@U012AB3CD> mentions)",
  );

export const mrkdwnField = z
  .boolean()
  .default(true)
  .describe("format the text as Slack mrkdwn (default); false sends it as typed");

/** How many items a read tool returns; the toolkit's configured maximum caps it. */
export const limitField = z
  .int()
  .min(1)
  .max(1000)
  .optional()
  .describe("the most items to return (default and cap: the deployment's maxItems, 100 unless configured)");

/** A `next_cursor` Slack gave: opaque base64, passed back as it came. */
export const cursorField = z
  .string()
  .regex(/^[A-Za-z0-9+/=_-]{1,512}$/, "a cursor exactly as a previous answer's nextCursor gave it");
