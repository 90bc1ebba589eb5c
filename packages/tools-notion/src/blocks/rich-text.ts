/**
 * @module Text to and from Notion's rich text. Notion caps one text object's `content` at 2,000 characters
 * and a rich text array at 100 objects (developers.notion.com/reference/request-limits, "Limits for property
 * values"), so longer text is split into several objects, never cut.
 */
import type { RichTextItemResponse } from "@notionhq/client";

/** A text object's content at most (Notion's "text.content" limit). */
export const RICH_TEXT_CHARS = 2000;
/** Text objects in one rich text array at most. */
export const RICH_TEXT_ITEMS = 100;
/** The most text one rich text array holds. */
export const RICH_TEXT_MAX = RICH_TEXT_CHARS * RICH_TEXT_ITEMS;

/** A plain text object as Notion takes it in a request. */
export interface TextItem {
  type: "text";
  text: { content: string };
}

/**
 * `text` as text objects of at most 2,000 characters, split between UTF-16 surrogates never (a split emoji
 * would be two invalid halves). The caller keeps text within RICH_TEXT_MAX.
 */
export function toRichText(text: string): TextItem[] {
  const items: TextItem[] = [];
  let rest = text;
  while (rest.length > 0) {
    let cut = Math.min(RICH_TEXT_CHARS, rest.length);
    const last = rest.charCodeAt(cut - 1);
    if (cut < rest.length && last >= 0xd800 && last <= 0xdbff) cut -= 1;
    items.push({ type: "text", text: { content: rest.slice(0, cut) } });
    rest = rest.slice(cut);
  }
  return items;
}

/** What a reader sees of a rich text array. */
export function plainText(items: readonly RichTextItemResponse[] | undefined): string {
  return (items ?? []).map((item) => item.plain_text).join("");
}
