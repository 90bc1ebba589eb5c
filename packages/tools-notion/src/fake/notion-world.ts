/**
 * @module What the Notion fake holds: a workspace shared with the integration — a Tasks database with one
 * data source, a database with two, a handbook page with nested content of every kind the toolkit renders
 * (and a bookmark it does not), a long page — and the comments written. Ids are fixed so tests can name them.
 */
import type { BlockObjectResponse, CommentObjectResponse, PageObjectResponse } from "@notionhq/client";
import {
  type BlockSpec,
  blockObject,
  type DataSourceProperties,
  databaseObject,
  dataSourceObject,
  pageObject,
  richText,
  titleValue,
} from "./notion-objects.js";

export const TEST_TOKEN = "ntn_4711fake0integration0token";

export const TASKS_DATABASE = "1a2b3c4d-0000-4000-8000-000000000001";
export const TASKS = "1a2b3c4d-0000-4000-8000-0000000000d5";
export const MULTI_DATABASE = "1a2b3c4d-0000-4000-8000-000000000002";
export const MULTI_SOURCES = [
  "1a2b3c4d-0000-4000-8000-0000000000a1",
  "1a2b3c4d-0000-4000-8000-0000000000a2",
] as const;
export const HANDBOOK = "2b3c4d5e-0000-4000-8000-000000000001";
export const LONG_PAGE = "2b3c4d5e-0000-4000-8000-000000000002";
export const FIRST_TASK = "3c4d5e6f-0000-4000-8000-000000000001";
export const TASK_COUNT = 12;
export const LONG_PAGE_BLOCKS = 250;

/** The Tasks data source's schema, as Retrieve a data source returns it. */
const TASK_PROPERTIES: DataSourceProperties = {
  Name: { id: "title", name: "Name", description: null, type: "title", title: {} },
  Status: {
    id: "st%3A",
    name: "Status",
    description: null,
    type: "status",
    status: {
      options: [
        { id: "s1", name: "Not started", color: "default", description: null },
        { id: "s2", name: "In progress", color: "blue", description: null },
        { id: "s3", name: "Done", color: "green", description: null },
      ],
      groups: [],
    },
  },
  Priority: { id: "pr%3A", name: "Priority", description: null, type: "select", select: { options: [] } },
  Tags: { id: "tg%3A", name: "Tags", description: null, type: "multi_select", multi_select: { options: [] } },
  Due: { id: "du%3A", name: "Due", description: null, type: "date", date: {} },
  Estimate: {
    id: "es%3A",
    name: "Estimate",
    description: null,
    type: "number",
    number: { format: "number" },
  },
  Blocked: { id: "bl%3A", name: "Blocked", description: null, type: "checkbox", checkbox: {} },
  Link: { id: "li%3A", name: "Link", description: null, type: "url", url: {} },
  Created: { id: "cr%3A", name: "Created", description: null, type: "created_time", created_time: {} },
};

export interface NotionWorld {
  pages: Map<string, PageObjectResponse>;
  blocks: Map<string, BlockObjectResponse>;
  /** Child block ids in order, by parent (a page or a block). */
  children: Map<string, string[]>;
  comments: CommentObjectResponse[];
}

export function createWorld(): NotionWorld {
  const world: NotionWorld = { pages: new Map(), blocks: new Map(), children: new Map(), comments: [] };
  for (let index = 1; index <= TASK_COUNT; index++) {
    const id = `3c4d5e6f-0000-4000-8000-${String(index).padStart(12, "0")}`;
    world.pages.set(
      id,
      pageObject({
        id,
        parent: { type: "data_source_id", data_source_id: TASKS, database_id: TASKS_DATABASE },
        properties: {
          Name: { id: "title", type: "title", title: [richText(`Task ${index}`)] },
          Status: {
            id: "st%3A",
            type: "status",
            status: { id: "s1", name: index % 3 === 0 ? "Done" : "Not started", color: "default" },
          },
          Estimate: { id: "es%3A", type: "number", number: index },
          Blocked: { id: "bl%3A", type: "checkbox", checkbox: index === 2 },
        },
      }),
    );
  }
  world.pages.set(
    HANDBOOK,
    pageObject({
      id: HANDBOOK,
      parent: { type: "workspace", workspace: true },
      properties: { title: titleValue("Team handbook") },
    }),
  );
  addTree(world, HANDBOOK, HANDBOOK_TREE);
  world.pages.set(
    LONG_PAGE,
    pageObject({
      id: LONG_PAGE,
      parent: { type: "page_id", page_id: HANDBOOK },
      properties: { title: titleValue("Meeting log") },
    }),
  );
  addTree(
    world,
    LONG_PAGE,
    Array.from({ length: LONG_PAGE_BLOCKS }, (_, index) => ({
      spec: { type: "paragraph", text: `Entry ${index + 1}` },
    })),
  );
  return world;
}

export const DATA_SOURCES = {
  [TASKS]: dataSourceObject({
    id: TASKS,
    databaseId: TASKS_DATABASE,
    title: "Tasks",
    properties: TASK_PROPERTIES,
  }),
  [MULTI_SOURCES[0]]: dataSourceObject({
    id: MULTI_SOURCES[0],
    databaseId: MULTI_DATABASE,
    title: "2025",
    properties: { Name: TASK_PROPERTIES.Name } as DataSourceProperties,
  }),
  [MULTI_SOURCES[1]]: dataSourceObject({
    id: MULTI_SOURCES[1],
    databaseId: MULTI_DATABASE,
    title: "2026",
    properties: { Name: TASK_PROPERTIES.Name } as DataSourceProperties,
  }),
} as const;

export const DATABASES = {
  [TASKS_DATABASE]: databaseObject(TASKS_DATABASE, "Tasks", [{ id: TASKS, name: "Tasks" }]),
  [MULTI_DATABASE]: databaseObject(MULTI_DATABASE, "Roadmap", [
    { id: MULTI_SOURCES[0], name: "2025" },
    { id: MULTI_SOURCES[1], name: "2026" },
  ]),
} as const;

export interface TreeSpec {
  spec: BlockSpec;
  children?: TreeSpec[];
}

/** Three levels deep below the page: a list item with a child with a child, and a toggle with content. */
const HANDBOOK_TREE: TreeSpec[] = [
  { spec: { type: "heading_1", text: "Welcome" } },
  { spec: { type: "paragraph", text: "Read this first." } },
  {
    spec: { type: "bulleted_list_item", text: "Tools" },
    children: [
      {
        spec: { type: "bulleted_list_item", text: "Notion" },
        children: [{ spec: { type: "paragraph", text: "Deepest note" } }],
      },
    ],
  },
  { spec: { type: "numbered_list_item", text: "Install" } },
  { spec: { type: "numbered_list_item", text: "Sign in" } },
  { spec: { type: "to_do", text: "Say hello", checked: true } },
  { spec: { type: "to_do", text: "Book onboarding", checked: false } },
  { spec: { type: "code", text: "print('hi')", language: "python" } },
  { spec: { type: "quote", text: "Ship it" } },
  { spec: { type: "callout", text: "Ask in #help", emoji: "💡" } },
  {
    spec: { type: "toggle", text: "Details" },
    children: [{ spec: { type: "paragraph", text: "Hidden text" } }],
  },
  { spec: { type: "divider" } },
  { spec: { type: "child_page", title: "Meeting log" } },
  { spec: { type: "bookmark", url: "https://example.com/guide", caption: "The guide" } },
];

export function addTree(world: NotionWorld, parentId: string, tree: readonly TreeSpec[]): void {
  const ids = world.children.get(parentId) ?? [];
  for (const node of tree) {
    const block = blockObject(node.spec, parentId, (node.children?.length ?? 0) > 0);
    world.blocks.set(block.id, block);
    ids.push(block.id);
    if (node.children) addTree(world, block.id, node.children);
  }
  world.children.set(parentId, ids);
}
