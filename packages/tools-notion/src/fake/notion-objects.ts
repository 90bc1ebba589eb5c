/**
 * @module Builders of the objects the Notion fake answers with, typed with @notionhq/client's own response
 * types: Notion publishes no OpenAPI description, so the SDK's types (generated from Notion's API) are what
 * the fake's answers are checked against — a field the SDK requires and the fake forgot fails to compile.
 * Shapes: developers.notion.com/reference/page, /block, /data-source, /database, /comment-object.
 */
import { randomUUID } from "node:crypto";
import type {
  BlockObjectResponse,
  CommentObjectResponse,
  DatabaseObjectResponse,
  DataSourceObjectResponse,
  PageObjectResponse,
  ParagraphBlockObjectResponse,
  PartialUserObjectResponse,
  RichTextItemResponse,
} from "@notionhq/client";

export const INTEGRATION_USER: PartialUserObjectResponse = {
  object: "user",
  id: "5b8e1cbf-7d44-4d10-a0b6-2f0f1e3b9a11",
};
const EDITED = "2026-11-30T10:00:00.000Z";

/** Text as Notion returns it, with its plain_text and default annotations. */
export function richText(content: string): RichTextItemResponse {
  return {
    type: "text",
    text: { content, link: null },
    plain_text: content,
    href: null,
    annotations: {
      bold: false,
      italic: false,
      strikethrough: false,
      underline: false,
      code: false,
      color: "default",
    },
  };
}

export type DataSourceProperties = DataSourceObjectResponse["properties"];
export type PageProperties = PageObjectResponse["properties"];

export function dataSourceObject(options: {
  id: string;
  databaseId: string;
  title: string;
  properties: DataSourceProperties;
}): DataSourceObjectResponse {
  return {
    object: "data_source",
    id: options.id,
    title: [richText(options.title)],
    description: [],
    parent: { type: "database_id", database_id: options.databaseId },
    database_parent: { type: "workspace", workspace: true },
    is_inline: false,
    in_trash: false,
    archived: false,
    created_time: EDITED,
    last_edited_time: EDITED,
    created_by: INTEGRATION_USER,
    last_edited_by: INTEGRATION_USER,
    properties: options.properties,
    icon: null,
    cover: null,
    url: `https://www.notion.so/${options.id.replace(/-/g, "")}`,
    public_url: null,
  };
}

export function databaseObject(
  id: string,
  title: string,
  sources: { id: string; name: string }[],
): DatabaseObjectResponse {
  return {
    object: "database",
    id,
    title: [richText(title)],
    description: [],
    parent: { type: "workspace", workspace: true },
    is_inline: false,
    in_trash: false,
    archived: false,
    is_locked: false,
    created_time: EDITED,
    last_edited_time: EDITED,
    data_sources: sources,
    icon: null,
    cover: null,
    url: `https://www.notion.so/${id.replace(/-/g, "")}`,
    public_url: null,
  };
}

export function pageObject(options: {
  id?: string;
  parent: PageObjectResponse["parent"];
  properties: PageProperties;
}): PageObjectResponse {
  const id = options.id ?? randomUUID();
  return {
    object: "page",
    id,
    created_time: EDITED,
    last_edited_time: EDITED,
    in_trash: false,
    archived: false,
    is_archived: false,
    is_locked: false,
    url: `https://www.notion.so/${id.replace(/-/g, "")}`,
    public_url: null,
    parent: options.parent,
    properties: options.properties,
    icon: null,
    cover: null,
    created_by: INTEGRATION_USER,
    last_edited_by: INTEGRATION_USER,
  };
}

/** A page's title property value, as a standalone page has it (named "title"). */
export function titleValue(text: string): PageProperties[string] {
  return { id: "title", type: "title", title: [richText(text)] };
}

/** What every block has besides its type and content. */
type BlockBase = Omit<ParagraphBlockObjectResponse, "type" | "paragraph">;

function blockBase(parentId: string, hasChildren: boolean, id: string = randomUUID()): BlockBase {
  return {
    object: "block",
    id,
    parent: { type: "page_id", page_id: parentId },
    created_time: EDITED,
    created_by: INTEGRATION_USER,
    last_edited_time: EDITED,
    last_edited_by: INTEGRATION_USER,
    has_children: hasChildren,
    in_trash: false,
    archived: false,
  };
}

/** Block content as a test writes it: the kinds the toolkit renders, and one it does not know (bookmark). */
export type BlockSpec =
  | { type: "paragraph" | "quote" | "bulleted_list_item" | "numbered_list_item" | "toggle"; text: string }
  | { type: "heading_1" | "heading_2" | "heading_3"; text: string }
  | { type: "to_do"; text: string; checked: boolean }
  | { type: "code"; text: string; language: "python" | "plain text" | "typescript" }
  | { type: "callout"; text: string; emoji: "💡" }
  | { type: "divider" }
  | { type: "child_page"; title: string }
  | { type: "bookmark"; url: string; caption: string };

export function blockObject(
  spec: BlockSpec,
  parentId: string,
  hasChildren = false,
  id?: string,
): BlockObjectResponse {
  const base = blockBase(parentId, hasChildren, id);
  switch (spec.type) {
    case "paragraph":
      return {
        ...base,
        type: "paragraph",
        paragraph: { rich_text: [richText(spec.text)], color: "default", icon: null },
      };
    case "quote":
      return { ...base, type: "quote", quote: { rich_text: [richText(spec.text)], color: "default" } };
    case "bulleted_list_item":
      return {
        ...base,
        type: "bulleted_list_item",
        bulleted_list_item: { rich_text: [richText(spec.text)], color: "default" },
      };
    case "numbered_list_item":
      return {
        ...base,
        type: "numbered_list_item",
        numbered_list_item: { rich_text: [richText(spec.text)], color: "default" },
      };
    case "toggle":
      return { ...base, type: "toggle", toggle: { rich_text: [richText(spec.text)], color: "default" } };
    case "heading_1":
      return {
        ...base,
        type: "heading_1",
        heading_1: { rich_text: [richText(spec.text)], color: "default", is_toggleable: false },
      };
    case "heading_2":
      return {
        ...base,
        type: "heading_2",
        heading_2: { rich_text: [richText(spec.text)], color: "default", is_toggleable: false },
      };
    case "heading_3":
      return {
        ...base,
        type: "heading_3",
        heading_3: { rich_text: [richText(spec.text)], color: "default", is_toggleable: false },
      };
    case "to_do":
      return {
        ...base,
        type: "to_do",
        to_do: { rich_text: [richText(spec.text)], color: "default", checked: spec.checked },
      };
    case "code":
      return {
        ...base,
        type: "code",
        code: { rich_text: [richText(spec.text)], caption: [], language: spec.language },
      };
    case "callout":
      return {
        ...base,
        type: "callout",
        callout: {
          rich_text: [richText(spec.text)],
          color: "default",
          icon: { type: "emoji", emoji: spec.emoji },
        },
      };
    case "divider":
      return { ...base, type: "divider", divider: {} };
    case "child_page":
      return { ...base, type: "child_page", child_page: { title: spec.title } };
    case "bookmark":
      return { ...base, type: "bookmark", bookmark: { url: spec.url, caption: [richText(spec.caption)] } };
  }
}

export function commentObject(options: {
  parent: CommentObjectResponse["parent"];
  discussionId: string;
  text: string;
}): CommentObjectResponse {
  return {
    object: "comment",
    id: randomUUID(),
    parent: options.parent,
    discussion_id: options.discussionId,
    created_time: EDITED,
    last_edited_time: EDITED,
    created_by: INTEGRATION_USER,
    rich_text: [richText(options.text)],
    display_name: { type: "integration", resolved_name: "toolreg" },
  };
}
