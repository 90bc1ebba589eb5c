/**
 * @module A local Notion API for the toolkit's tests, on toolreg/test's vendor fake server. What it
 * reproduces, and where Notion says so:
 * - errors as `{"object":"error","status":…,"code":…,"message":…}` with the status the code goes with:
 *   401 unauthorized, 403 restricted_resource, 404 object_not_found, 409 conflict_error, 429 rate_limited,
 *   503 service_unavailable, 400 validation_error and missing_version (developers.notion.com/reference/status-codes);
 * - 429 with Retry-After in whole seconds, or without it (developers.notion.com/reference/request-limits);
 * - cursor pagination: `results`, `has_more`, `next_cursor`, page_size at most 100 (developers.notion.com/
 *   reference/intro, "Pagination");
 * - size limits refused as validation_error: more than 100 children in one request (reference/patch-block-children),
 *   a text object's content over 2,000 characters (reference/request-limits);
 * - a property name the data source lacks, on create or update, answered one of two ways, as Notion has been
 *   seen to do both (`unknownProperties`): "accept" drops it and answers 200, as our issue #24 reports;
 *   "reject" answers 400 validation_error "<name> is not a property that exists." as reported in
 *   github.com/seratch/notion-sdk-jvm/issues/75 and github.com/thex3family/make-work-fun/issues/14;
 * - 2025-09-03's data sources: GET /v1/databases/{id} lists `data_sources`, rows are queried at
 *   POST /v1/data_sources/{id}/query (developers.notion.com/docs/upgrade-guide-2025-09-03).
 * Every request is logged (toolreg/test's SeenRequest); `next(scenario)` makes the next request fail.
 */
import { randomUUID } from "node:crypto";
import type { BlockObjectResponse, PageObjectResponse } from "@notionhq/client";
import { type FakeReply, type SeenRequest, startVendorFake, type VendorFake } from "toolreg/test";
import { type BlockSpec, blockObject, commentObject, pageObject, richText } from "./notion-objects.js";
import { DATA_SOURCES, DATABASES, type NotionWorld, TEST_TOKEN } from "./notion-world.js";

export type NotionScenario =
  | "rate_limited"
  | "rate_limited_no_wait"
  | "unavailable"
  | "conflict"
  | "restricted";

export interface NotionFake extends VendorFake<NotionScenario> {
  world: NotionWorld;
  /** The logged requests other than GETs: what a test asserts was (or was not) written. */
  writes(): SeenRequest[];
  /** Lets `passing` more requests through, then answers the next one with `scenario`: a failure partway. */
  failAfter(passing: number, scenario: NotionScenario): void;
  /** How a property name the schema lacks is answered on a write (see the module comment); "accept" unless set. */
  unknownProperties: UnknownPropertyAnswer;
  /**
   * The most results a list page holds whatever page_size asks: Notion may answer with fewer than asked
   * (search leaves out what the integration cannot see), so a test can cross a page boundary with few items.
   */
  pageCap: number | undefined;
  /**
   * A data source query answers `request_status: {type: "incomplete", incomplete_reason:
   * "query_result_limit_reached"}` (the shape @notionhq/client 5.26's QueryDataSourceResponse declares).
   */
  incompleteQuery: boolean;
}

export type UnknownPropertyAnswer = "accept" | "reject";

type Json = Record<string, unknown>;

export function notionError(status: number, code: string, message: string): FakeReply {
  return { status, body: { object: "error", status, code, message, request_id: randomUUID() } };
}

const SCENARIOS: Record<NotionScenario, FakeReply> = {
  rate_limited: {
    ...notionError(429, "rate_limited", "You have been rate limited. Please try again in a few minutes."),
    headers: { "retry-after": "7" },
  },
  rate_limited_no_wait: notionError(
    429,
    "rate_limited",
    "You have been rate limited. Please try again in a few minutes.",
  ),
  unavailable: notionError(503, "service_unavailable", "Notion is unavailable, please try again later."),
  conflict: notionError(409, "conflict_error", "Conflict occurred while saving. Please try again."),
  restricted: notionError(403, "restricted_resource", "Insufficient permissions for this endpoint."),
};

const notFound = (kind: string, id: string) =>
  notionError(
    404,
    "object_not_found",
    `Could not find ${kind} with ID: ${id}. Make sure the relevant pages and databases are shared with your integration.`,
  );
const invalid = (message: string) => notionError(400, "validation_error", message);
const ok = (body: unknown): FakeReply => ({ status: 200, body });

export async function startNotionFake(world: NotionWorld): Promise<NotionFake> {
  let later: { passing: number; scenario: NotionScenario } | undefined;
  // Requests arrive only once the fake is returned, so the handler reads the setting from it.
  let self: NotionFake | undefined;
  const fake = await startVendorFake<NotionScenario>((request, scenario) => {
    if (scenario) return SCENARIOS[scenario];
    if (later && later.passing-- === 0) {
      const { scenario: failing } = later;
      later = undefined;
      return SCENARIOS[failing];
    }
    if (request.headers.authorization !== `Bearer ${TEST_TOKEN}`)
      return notionError(401, "unauthorized", "API token is invalid.");
    if (!request.headers["notion-version"]) {
      return notionError(
        400,
        "missing_version",
        "Notion-Version header failed validation: Notion-Version header should be defined, instead was `undefined`.",
      );
    }
    const body = request.body === "" ? {} : (JSON.parse(request.body) as Json);
    return route(
      world,
      request,
      body,
      self ?? { unknownProperties: "accept", pageCap: undefined, incompleteQuery: false },
    );
  });
  self = {
    ...fake,
    world,
    writes: () => fake.requests.filter((request) => request.method !== "GET"),
    failAfter: (passing, scenario) => {
      later = { passing, scenario };
    },
    unknownProperties: "accept",
    pageCap: undefined,
    incompleteQuery: false,
  };
  return self;
}

function route(
  world: NotionWorld,
  request: SeenRequest,
  body: Json,
  {
    unknownProperties,
    pageCap,
    incompleteQuery,
  }: Pick<NotionFake, "unknownProperties" | "pageCap" | "incompleteQuery">,
): FakeReply {
  const { method, path } = request;
  const cap = (size: unknown) =>
    pageCap === undefined ? size : Math.min(pageCap, size === undefined ? 100 : Number(size));
  const [, , resource, id, sub] = path.split("/");
  const tooLarge = sizeProblem(body);
  if (tooLarge) return invalid(tooLarge);
  if (method === "POST" && resource === "search")
    return search(world, { ...body, page_size: cap(body.page_size) });
  if (resource === "pages") {
    if (method === "POST" && id === undefined) return createPage(world, body, unknownProperties);
    const page = id === undefined ? undefined : world.pages.get(id);
    if (!page) return notFound("page", id ?? "");
    if (method === "GET") return ok(page);
    if (method === "PATCH") {
      const updated = writeProperties(page, (body.properties ?? {}) as Json);
      if (unknownProperties === "reject" && updated.unknown) return notAProperty(updated.unknown);
      world.pages.set(updated.page.id, updated.page);
      return ok(updated.page);
    }
  }
  if (resource === "blocks" && sub === "children" && id !== undefined) {
    if (!world.pages.has(id) && !world.blocks.has(id)) return notFound("block", id);
    if (method === "GET") return listChildren(world, id, request.query);
    if (method === "PATCH") return appendChildren(world, id, (body.children ?? []) as Json[]);
  }
  if (resource === "data_sources" && id !== undefined) {
    const source = DATA_SOURCES[id as keyof typeof DATA_SOURCES];
    if (!source) return notFound("data source", id);
    if (method === "GET") return ok(source);
    if (method === "POST" && sub === "query") {
      const reply = queryRows(world, id, { ...body, page_size: cap(body.page_size) });
      return incompleteQuery && reply.status === 200
        ? {
            ...reply,
            body: {
              ...(reply.body as Json),
              request_status: { type: "incomplete", incomplete_reason: "query_result_limit_reached" },
            },
          }
        : reply;
    }
  }
  if (resource === "databases" && method === "GET" && id !== undefined) {
    const database = DATABASES[id as keyof typeof DATABASES];
    return database ? ok(database) : notFound("database", id);
  }
  if (resource === "comments" && method === "POST") return createComment(world, body);
  return notionError(400, "invalid_request_url", "Invalid request URL.");
}

/** Notion's size limits on what a request carries. */
function sizeProblem(body: Json): string | undefined {
  const children = body.children;
  if (Array.isArray(children) && children.length > 100) {
    return `body failed validation: body.children.length should be ≤ \`100\`, instead was \`${children.length}\`.`;
  }
  if (typeof body.page_size === "number" && body.page_size > 100) {
    return `body failed validation: body.page_size should be ≤ \`100\`, instead was \`${body.page_size}\`.`;
  }
  const long = longText(body, "body");
  return long
    ? `body failed validation: ${long.path}.length should be ≤ \`2000\`, instead was \`${long.length}\`.`
    : undefined;
}

function longText(value: unknown, path: string): { path: string; length: number } | undefined {
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = longText(item, `${path}[${index}]`);
      if (found) return found;
    }
  } else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key === "content" && typeof item === "string" && item.length > 2000)
        return { path: `${path}.content`, length: item.length };
      const found = longText(item, `${path}.${key}`);
      if (found) return found;
    }
  }
  return undefined;
}

/** A list page from `items`, where the cursor is the id of the first item of the next page. */
function listPage<T extends { id: string }>(
  items: readonly T[],
  cursor: unknown,
  size: unknown,
  type: string,
): FakeReply {
  const pageSize = size === undefined ? 100 : Number(size);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 100)
    return invalid(`page_size should be ≤ \`100\`, instead was \`${String(size)}\`.`);
  const start = cursor === undefined ? 0 : items.findIndex((item) => item.id === cursor);
  if (start < 0) return invalid(`start_cursor should be a valid cursor, instead was \`${String(cursor)}\`.`);
  const results = items.slice(start, start + pageSize);
  const next = items[start + pageSize];
  return ok({
    object: "list",
    results,
    next_cursor: next?.id ?? null,
    has_more: next !== undefined,
    type,
    [type]: {},
  });
}

function titleOf(page: PageObjectResponse): string {
  const title = Object.values(page.properties).find((value) => value.type === "title");
  return title?.type === "title" ? title.title.map((item) => item.plain_text).join("") : "";
}

function search(world: NotionWorld, body: Json): FakeReply {
  const query = typeof body.query === "string" ? body.query.toLowerCase() : "";
  const kind = (body.filter as { value?: string } | undefined)?.value;
  const pages =
    kind === "data_source"
      ? []
      : [...world.pages.values()].filter((page) => titleOf(page).toLowerCase().includes(query));
  const sources =
    kind === "page"
      ? []
      : Object.values(DATA_SOURCES).filter((source) =>
          source.title
            .map((item) => item.plain_text)
            .join("")
            .toLowerCase()
            .includes(query),
        );
  return listPage([...pages, ...sources], body.start_cursor, body.page_size, "page_or_data_source");
}

function listChildren(world: NotionWorld, parentId: string, query: Record<string, string>): FakeReply {
  const blocks = (world.children.get(parentId) ?? [])
    .map((id) => world.blocks.get(id))
    .filter((block) => block !== undefined);
  return listPage(blocks, query.start_cursor, query.page_size, "block");
}

function appendChildren(world: NotionWorld, parentId: string, children: Json[]): FakeReply {
  const added = children.map((child) => blockObject(specOf(child), parentId));
  for (const block of added) world.blocks.set(block.id, block);
  world.children.set(parentId, [...(world.children.get(parentId) ?? []), ...added.map((block) => block.id)]);
  const parent = world.blocks.get(parentId);
  if (parent) world.blocks.set(parentId, { ...parent, has_children: true } as BlockObjectResponse);
  return ok({ object: "list", results: added, next_cursor: null, has_more: false, type: "block", block: {} });
}

/** A requested block as the fake stores it: its type and its text. */
function specOf(child: Json): BlockSpec {
  const type = String(child.type);
  const content = (child[type] ?? {}) as { rich_text?: { text?: { content?: string } }[]; checked?: boolean };
  const text = (content.rich_text ?? []).map((item) => item.text?.content ?? "").join("");
  switch (type) {
    case "divider":
      return { type: "divider" };
    case "to_do":
      return { type: "to_do", text, checked: content.checked === true };
    case "code":
      return { type: "code", text, language: "plain text" };
    case "heading_1":
    case "heading_2":
    case "heading_3":
      return { type, text };
    case "quote":
    case "bulleted_list_item":
    case "numbered_list_item":
    case "toggle":
      return { type, text };
    default:
      return { type: "paragraph", text };
  }
}

function createPage(world: NotionWorld, body: Json, unknownProperties: UnknownPropertyAnswer): FakeReply {
  const parent = (body.parent ?? {}) as { data_source_id?: string; page_id?: string };
  let page: PageObjectResponse;
  if (parent.data_source_id !== undefined) {
    const source = DATA_SOURCES[parent.data_source_id as keyof typeof DATA_SOURCES];
    if (!source) return notFound("data source", parent.data_source_id);
    page = pageObject({
      parent: {
        type: "data_source_id",
        data_source_id: source.id,
        database_id: source.parent.type === "database_id" ? source.parent.database_id : "",
      },
      properties: {},
    });
  } else if (parent.page_id !== undefined) {
    if (!world.pages.has(parent.page_id)) return notFound("page", parent.page_id);
    page = pageObject({ parent: { type: "page_id", page_id: parent.page_id }, properties: {} });
  } else {
    return invalid("body failed validation: body.parent should be defined, instead was `undefined`.");
  }
  const { page: written, unknown } = writeProperties(page, (body.properties ?? {}) as Json);
  if (unknownProperties === "reject" && unknown) return notAProperty(unknown);
  world.pages.set(written.id, written);
  if (Array.isArray(body.children)) appendChildren(world, written.id, body.children as Json[]);
  return ok(written);
}

/** The answer Notion has been seen to give a property name the schema lacks (see the module comment). */
const notAProperty = (name: string) => invalid(`${name} is not a property that exists.`);

/**
 * Sets the properties the page's schema has; a name it lacks is dropped, and the first such name returned
 * so the caller answers as the fake is set to.
 */
function writeProperties(
  page: PageObjectResponse,
  properties: Json,
): { page: PageObjectResponse; unknown?: string } {
  const schema =
    page.parent.type === "data_source_id"
      ? (DATA_SOURCES[page.parent.data_source_id as keyof typeof DATA_SOURCES]?.properties ?? {})
      : { title: { id: "title", type: "title" } };
  const next = { ...page.properties };
  let unknown: string | undefined;
  for (const [name, value] of Object.entries(properties)) {
    const shape = Object.hasOwn(schema, name)
      ? (schema[name as keyof typeof schema] as { id: string; type: string })
      : undefined;
    if (!shape) {
      unknown ??= name;
      continue;
    }
    const given = (value as Json)[shape.type];
    next[name] = {
      id: shape.id,
      type: shape.type,
      [shape.type]: responseValue(shape.type, given),
    } as PageObjectResponse["properties"][string];
  }
  return { page: { ...page, properties: next }, ...(unknown === undefined ? {} : { unknown }) };
}

function responseValue(type: string, given: unknown): unknown {
  if (type === "title" || type === "rich_text") {
    return (given as { text: { content: string } }[]).map((item) => richText(item.text.content));
  }
  if (type === "select" || type === "status") {
    return given === null
      ? null
      : { id: randomUUID(), name: (given as { name: string }).name, color: "default" };
  }
  if (type === "multi_select")
    return (given as { name: string }[]).map((option) => ({
      id: randomUUID(),
      name: option.name,
      color: "default",
    }));
  if (type === "date") return given === null ? null : { ...(given as Json), end: null, time_zone: null };
  return given;
}

function queryRows(world: NotionWorld, sourceId: string, body: Json): FakeReply {
  const source = DATA_SOURCES[sourceId as keyof typeof DATA_SOURCES];
  const rows = [...world.pages.values()].filter(
    (page) => page.parent.type === "data_source_id" && page.parent.data_source_id === sourceId,
  );
  const filter = body.filter as ({ property?: string } & Json) | undefined;
  if (filter === undefined) return listPage(rows, body.start_cursor, body.page_size, "page_or_data_source");
  const shape = filter.property === undefined ? undefined : source?.properties[filter.property];
  if (!shape) return invalid(`Could not find property with name or id: ${String(filter.property)}`);
  const condition = filter[shape.type] as { equals?: unknown } | undefined;
  if (condition?.equals === undefined)
    return invalid("the fake supports only an equals filter on one property");
  const matching = rows.filter((page) => {
    const value = page.properties[shape.name] as Json | undefined;
    const held = value?.[shape.type];
    const plain = held && typeof held === "object" && "name" in held ? (held as { name: string }).name : held;
    return plain === condition.equals;
  });
  return listPage(matching, body.start_cursor, body.page_size, "page_or_data_source");
}

function createComment(world: NotionWorld, body: Json): FakeReply {
  const text = ((body.rich_text ?? []) as { text: { content: string } }[])
    .map((item) => item.text.content)
    .join("");
  const parent = body.parent as { page_id?: string } | undefined;
  if (parent?.page_id !== undefined) {
    if (!world.pages.has(parent.page_id)) return notFound("page", parent.page_id);
    const comment = commentObject({
      parent: { type: "page_id", page_id: parent.page_id },
      discussionId: randomUUID(),
      text,
    });
    world.comments.push(comment);
    return ok(comment);
  }
  const thread = world.comments.find((comment) => comment.discussion_id === body.discussion_id);
  if (!thread) return notFound("discussion", String(body.discussion_id));
  const reply = commentObject({ parent: thread.parent, discussionId: thread.discussion_id, text });
  world.comments.push(reply);
  return ok(reply);
}
