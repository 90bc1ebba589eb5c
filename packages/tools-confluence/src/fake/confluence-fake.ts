/**
 * @module A local Confluence Cloud. What it reproduces, and from where:
 * - v2 `GET /wiki/api/v2/pages/{id}?body-format=storage`, `POST /wiki/api/v2/pages`, `PUT /wiki/api/v2/pages/{id}`
 *   (200, PageSingle with `_links.base`), `GET /wiki/api/v2/spaces` (MultiEntityResult<Space>, `limit` 1–250,
 *   default 25, the next page's path in `_links.next` and in the Link header with rel="next" and rel="base"),
 *   `POST /wiki/api/v2/footer-comments` (201, FooterCommentModel): Atlassian's v2 OpenAPI description
 *   (dac-static.atlassian.com/cloud/confluence/openapi-v2.v3.json) and its REST v2 reference pages;
 * - an update's version must be the current one plus one, else 409 with v2's error body
 *   `{"errors":[{"status":409,"code":"CONFLICT","title":"Version must be incremented when updating a page.
 *   Current Version: [N]. Provided version: [M]","detail":null}]}` (community.developer.atlassian.com/t/98344,
 *   which shows v2's error body; Atlassian documents none), and the same shape for 400, 401, 403 and 404;
 * - v1 `GET /wiki/rest/api/search?cql=&limit=&cursor=` (SearchPageResponseSearchResult: results with
 *   content, title, excerpt with @@@hl@@@ marks, url, resultGlobalContainer; `_links.next` from the context
 *   `/wiki`), and v1's error body `{"statusCode":400,"data":{…},"message":"…Could not parse cql…"}` for bad
 *   CQL (developer.atlassian.com/cloud/confluence/rest/v1/api-group-search);
 * - credentials: a classic API token as `Basic base64(email:token)`, an OAuth 2.0 (3LO) token as Bearer,
 *   checked by `authenticate` (a test's OAuth provider); anything else is 401;
 * - rate limits (developer.atlassian.com/cloud/confluence/rate-limiting/): 429 with Retry-After, or with
 *   only X-RateLimit-Reset, queued with `failNext`, as are malformed answers.
 */
import type { FakeReply } from "toolreg/test";
import { type ConfluenceSite, createSite, type FakePage } from "./confluence-site.js";
import { type FakeRequest, type FakeServer, startFakeServer } from "./fake-server.js";

export const TEST_EMAIL = "ada@acme.example";
export const TEST_API_TOKEN = "ATATT3xFfGF0-test-token";
export const TEST_BASIC = `${TEST_EMAIL}:${TEST_API_TOKEN}`;
/** Where the fake says the site is, as Confluence's `_links.base` does. */
export const SITE_BASE = "https://acme.atlassian.net/wiki";

export interface ConfluenceFakeOptions {
  /** Who a Bearer token belongs to, or undefined for a token Confluence would refuse. */
  authenticate?(token: string): Promise<string | undefined>;
}

export interface ConfluenceFake extends FakeServer {
  site: ConfluenceSite;
  /** Someone else saves the page in the editor: a new version the tools never read. */
  editPage(id: string, storage: string): void;
}

export function v2Error(status: number, code: string, title: string): FakeReply {
  return { status, body: { errors: [{ status, code, title, detail: null }] } };
}

export async function startConfluenceFake(options: ConfluenceFakeOptions = {}): Promise<ConfluenceFake> {
  const site = createSite();
  const server = await startFakeServer(async (request) => {
    const who = await accountOf(request.headers.authorization, options);
    if (who === undefined) return v2Error(401, "UNAUTHORIZED", "Unauthorized; scope does not match");
    return route(site, request);
  });
  return {
    ...server,
    site,
    editPage(id, storage) {
      const page = site.pages.get(id);
      if (!page) throw new Error(`no page ${id}`);
      page.storage = storage;
      page.version += 1;
    },
  };
}

async function accountOf(
  authorization: string | undefined,
  options: ConfluenceFakeOptions,
): Promise<string | undefined> {
  const [scheme, value = ""] = (authorization ?? "").split(" ");
  if (scheme === "Basic") {
    return Buffer.from(value, "base64").toString("utf8") === TEST_BASIC ? TEST_EMAIL : undefined;
  }
  if (scheme === "Bearer" && options.authenticate) return options.authenticate(value);
  return undefined;
}

const PAGE_PATH = /^\/wiki\/api\/v2\/pages\/(\d+)$/;

function route(site: ConfluenceSite, request: FakeRequest): FakeReply {
  const { method, path } = request;
  const pageId = PAGE_PATH.exec(path)?.[1];
  if (pageId !== undefined && method === "GET") return getPage(site, pageId, request);
  if (pageId !== undefined && method === "PUT") return updatePage(site, pageId, request);
  if (path === "/wiki/api/v2/pages" && method === "POST") return createPage(site, request);
  if (path === "/wiki/api/v2/spaces" && method === "GET") return listSpaces(site, request);
  if (path === "/wiki/api/v2/footer-comments" && method === "POST") return addComment(site, request);
  if (path === "/wiki/rest/api/search" && method === "GET") return search(site, request);
  return v2Error(404, "NOT_FOUND", "No route found");
}

function pageJson(page: FakePage, withBody: boolean) {
  return {
    id: page.id,
    status: "current",
    title: page.title,
    spaceId: page.spaceId,
    parentId: page.parentId ?? null,
    parentType: page.parentId ? "page" : null,
    authorId: "5b10ac8d82e05b22cc7d4ef5",
    createdAt: "2026-11-02T09:30:00.000Z",
    version: {
      createdAt: "2026-12-01T10:00:00.000Z",
      message: "",
      number: page.version,
      minorEdit: false,
      authorId: "5b10ac8d82e05b22cc7d4ef5",
    },
    body: withBody ? { storage: { representation: "storage", value: page.storage } } : {},
    _links: {
      webui: `/spaces/ENG/pages/${page.id}/${encodeURIComponent(page.title.replace(/ /g, "+"))}`,
      editui: `/pages/resumedraft.action?draftId=${page.id}`,
      tinyui: `/x/${page.id}`,
      base: SITE_BASE,
    },
  };
}

function getPage(site: ConfluenceSite, id: string, request: FakeRequest): FakeReply {
  const page = site.pages.get(id);
  if (!page) return v2Error(404, "NOT_FOUND", "Not Found");
  return { status: 200, body: pageJson(page, request.query["body-format"] === "storage") };
}

function jsonOf(request: FakeRequest): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(request.body) as unknown;
    return typeof parsed === "object" && parsed !== null ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

function storageOf(body: Record<string, unknown>): string | undefined {
  const written = body.body as { representation?: unknown; value?: unknown } | undefined;
  return written?.representation === "storage" && typeof written.value === "string"
    ? written.value
    : undefined;
}

function updatePage(site: ConfluenceSite, id: string, request: FakeRequest): FakeReply {
  const page = site.pages.get(id);
  if (!page) return v2Error(404, "NOT_FOUND", "Not Found");
  const body = jsonOf(request);
  const number = (body?.version as { number?: unknown } | undefined)?.number;
  const storage = body && storageOf(body);
  if (
    !body ||
    typeof body.title !== "string" ||
    body.status !== "current" ||
    storage === undefined ||
    typeof number !== "number"
  ) {
    return v2Error(
      400,
      "INVALID_REQUEST_PARAMETER",
      "Invalid request: id, status, title, body and version are required",
    );
  }
  if (number !== page.version + 1) {
    return v2Error(
      409,
      "CONFLICT",
      `Version must be incremented when updating a page. Current Version: [${page.version}]. Provided version: [${number}]`,
    );
  }
  Object.assign(page, { title: body.title, storage, version: number });
  return { status: 200, body: pageJson(page, false) };
}

function createPage(site: ConfluenceSite, request: FakeRequest): FakeReply {
  const body = jsonOf(request);
  const storage = body && storageOf(body);
  if (!body || typeof body.spaceId !== "string" || typeof body.title !== "string" || storage === undefined) {
    return v2Error(
      400,
      "INVALID_REQUEST_PARAMETER",
      "Invalid request: spaceId, title and a storage body are required",
    );
  }
  const space = site.spaces.find((candidate) => candidate.id === body.spaceId);
  if (!space) return v2Error(404, "NOT_FOUND", "Space not found");
  if ([...site.pages.values()].some((page) => page.spaceId === space.id && page.title === body.title)) {
    return v2Error(
      400,
      "INVALID_REQUEST_PARAMETER",
      "A page with this title already exists: A page already exists with the same TITLE in this space",
    );
  }
  const page: FakePage = {
    id: site.nextId(),
    spaceId: space.id,
    title: body.title,
    version: 1,
    storage,
    parentId: typeof body.parentId === "string" ? body.parentId : space.homepageId,
  };
  site.pages.set(page.id, page);
  return { status: 200, body: pageJson(page, false) };
}

/** A cursor is the offset, opaque to the client as Atlassian's are. */
function offsetOf(cursor: string | undefined): number {
  return cursor === undefined ? 0 : Number(Buffer.from(cursor, "base64url").toString("utf8"));
}
function cursorAt(offset: number): string {
  return Buffer.from(String(offset), "utf8").toString("base64url");
}

function listSpaces(site: ConfluenceSite, request: FakeRequest): FakeReply {
  const limit = Number(request.query.limit ?? "25");
  if (!Number.isInteger(limit) || limit < 1 || limit > 250)
    return v2Error(400, "INVALID_REQUEST_PARAMETER", "limit must be between 1 and 250");
  // v2 GET /spaces: "Multiple keys can be specified as a comma-separated list."
  const keys = request.query.keys?.split(",") ?? [];
  const type = request.query.type;
  const matching = site.spaces.filter(
    (space) => (keys.length === 0 || keys.includes(space.key)) && (type === undefined || space.type === type),
  );
  const offset = offsetOf(request.query.cursor);
  const results = matching.slice(offset, offset + limit).map((space) => ({
    id: space.id,
    key: space.key,
    name: space.name,
    type: space.type,
    status: "current",
    authorId: "5b10ac8d82e05b22cc7d4ef5",
    createdAt: "2026-01-05T08:00:00.000Z",
    homepageId: space.homepageId,
    description: { plain: { value: `${space.name} space`, representation: "plain" } },
    _links: { webui: `/spaces/${space.key}` },
  }));
  const more = offset + limit < matching.length;
  const next = `/wiki/api/v2/spaces?limit=${limit}&cursor=${cursorAt(offset + limit)}`;
  return {
    status: 200,
    headers: {
      link: more ? `<${next}>; rel="next", <${SITE_BASE}>; rel="base"` : `<${SITE_BASE}>; rel="base"`,
    },
    body: { results, _links: { ...(more ? { next } : {}), base: SITE_BASE } },
  };
}

function addComment(site: ConfluenceSite, request: FakeRequest): FakeReply {
  const body = jsonOf(request);
  const storage = body && storageOf(body);
  if (!body || storage === undefined)
    return v2Error(400, "INVALID_REQUEST_PARAMETER", "Invalid request: body is required");
  const pageId = body.pageId;
  if (typeof pageId !== "string" || !site.pages.has(pageId))
    return v2Error(404, "NOT_FOUND", "Page not found");
  const id = site.nextId();
  site.comments.push({ id, pageId, storage });
  return {
    status: 201,
    body: {
      id,
      status: "current",
      title: `Re: ${site.pages.get(pageId)?.title}`,
      pageId,
      version: { number: 1, createdAt: "2026-12-06T09:00:00.000Z", authorId: "5b10ac8d82e05b22cc7d4ef5" },
      body: {},
      _links: { webui: `/spaces/ENG/pages/${pageId}?focusedCommentId=${id}#comment-${id}`, base: SITE_BASE },
    },
  };
}

function search(site: ConfluenceSite, request: FakeRequest): FakeReply {
  const cql = request.query.cql ?? "";
  const limit = Number(request.query.limit ?? "25");
  const text = /text\s*~\s*"([^"]*)"/.exec(cql)?.[1];
  if (!/^(?:type|text|title|space)\b/.test(cql)) {
    return {
      status: 400,
      body: {
        statusCode: 400,
        data: { authorized: true, valid: true, errors: [], successful: false },
        message: `com.atlassian.confluence.api.service.exceptions.BadRequestException: Could not parse cql : ${cql}`,
      },
    };
  }
  const matching = [...site.pages.values()].filter(
    (page) =>
      text === undefined || `${page.title} ${page.storage}`.toLowerCase().includes(text.toLowerCase()),
  );
  const offset = offsetOf(request.query.cursor);
  const highlight = (value: string) =>
    text === undefined
      ? value
      : value.replace(
          new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi"),
          (word) => `@@@hl@@@${word}@@@endhl@@@`,
        );
  const results = matching.slice(offset, offset + limit).map((page) => ({
    content: {
      id: page.id,
      type: "page",
      status: "current",
      title: page.title,
      _links: { webui: `/spaces/ENG/pages/${page.id}` },
    },
    title: highlight(page.title),
    excerpt: highlight(
      page.storage
        .replace(/<[^>]*>/g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    ),
    url: `/spaces/ENG/pages/${page.id}`,
    resultGlobalContainer: { title: "Engineering", displayUrl: "/spaces/ENG" },
    entityType: "content",
    lastModified: "2026-12-01T10:00:00.000Z",
  }));
  const more = offset + limit < matching.length;
  const next = `/rest/api/search?cql=${encodeURIComponent(cql)}&limit=${limit}&cursor=${cursorAt(offset + limit)}`;
  return {
    status: 200,
    body: {
      results,
      start: offset,
      limit,
      size: results.length,
      totalSize: matching.length,
      cqlQuery: cql,
      searchDuration: 12,
      _links: { base: SITE_BASE, context: "/wiki", ...(more ? { next } : {}) },
    },
  };
}
