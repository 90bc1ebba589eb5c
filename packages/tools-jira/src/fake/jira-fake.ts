/**
 * @module A local Jira Cloud (REST v3) on 127.0.0.1 for the toolkit's tests. It logs every request, takes
 * an Atlassian account's API token as HTTP Basic (`email:token`) and, when a test gives `authenticate`,
 * OAuth access tokens as Bearer; answers 401 with no body otherwise (the OpenAPI description documents
 * 401 with none). Every answer a route gives is checked against Atlassian's OpenAPI description
 * (openapi-check.ts); one that fails goes out as a 500 naming why, and is kept in `checkFailures`.
 * A test may queue a failure for the next request (`next`), each reproducing a documented case:
 * - 429 without and with `Retry-After`, `X-RateLimit-Reset` and `RateLimit-Reason`, with only
 *   `X-RateLimit-Reset`, and with the beta limits' `Beta-Retry-After` or only `X-Beta-RateLimit-Reset`
 *   (developer.atlassian.com/cloud/jira/platform/rate-limiting; the reasons as …/build-an-app-that-
 *   respects-rate-limits names them: jira-burst-based, jira-per-issue-on-write, jira-quota-tenant-based);
 * - 503 with `Retry-After` ("some transient 5XX errors are accompanied by a Retry-After header", ibid.);
 * - 403 with an ErrorCollection (the createIssue reference documents 403 with ErrorCollection);
 * - a 200 whose JSON is cut off, and a proxy's HTML page in place of JSON.
 */
import { type ServerType, serve } from "@hono/node-server";
import { type Context, Hono } from "hono";
import { ACCOUNT } from "./jira-site.js";
import { checkAgainstOpenApi } from "./openapi-check.js";

export type JiraScenario =
  | "rate-limited"
  | "rate-limited-retry-after"
  | "rate-limited-reset-only"
  | "rate-limited-beta"
  | "rate-limited-beta-reset-only"
  | "unavailable"
  | "forbidden"
  | "malformed"
  | "html";

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  authorization: string | undefined;
  body: unknown;
  /** Who the credential belongs to, when the fake knew it. */
  login?: string;
}

export interface JiraFake {
  url: string;
  requests: LoggedRequest[];
  checkFailures: string[];
  /** The next request answers this instead. */
  next(scenario: JiraScenario): void;
  /** Answers JSON (or nothing, for 204), after checking it against Jira's description of the route. */
  json(c: Context, status: number, body?: unknown): Response;
  close(): Promise<void>;
}

export type JiraRoutes = (app: Hono, fake: JiraFake) => void;

export interface JiraFakeOptions {
  routes: JiraRoutes;
  /** Whose OAuth access token this is; undefined for one unknown, expired or revoked. Bearer is refused without it. */
  authenticate?(token: string): Promise<string | undefined>;
}

const BASIC = `Basic ${Buffer.from(`${ACCOUNT.email}:${ACCOUNT.apiToken}`).toString("base64")}`;
const JSON_TYPE = { "content-type": "application/json;charset=UTF-8" };

export async function startJiraFake({ routes, authenticate }: JiraFakeOptions): Promise<JiraFake> {
  const app = new Hono();
  const requests: LoggedRequest[] = [];
  const checkFailures: string[] = [];
  const queued: JiraScenario[] = [];
  let server: ServerType | undefined;
  let url = "";

  const fake: JiraFake = {
    get url() {
      return url;
    },
    requests,
    checkFailures,
    next: (scenario) => queued.push(scenario),
    json(c, status, body) {
      try {
        checkAgainstOpenApi(c.req.method, c.req.routePath, status, body);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        checkFailures.push(reason);
        return new Response(JSON.stringify({ errorMessages: [`OpenAPI check: ${reason}`], errors: {} }), {
          status: 500,
          headers: JSON_TYPE,
        });
      }
      return new Response(body === undefined ? null : JSON.stringify(body), {
        status,
        headers: body === undefined ? {} : JSON_TYPE,
      });
    },
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };

  app.use("*", async (c, next) => {
    const text = await c.req.text();
    let body: unknown = text || undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    const authorization = c.req.header("authorization");
    const logged: LoggedRequest = {
      method: c.req.method,
      path: new URL(c.req.url).pathname,
      query: c.req.query(),
      authorization,
      body,
    };
    requests.push(logged);
    const login = await loginOf(authorization, authenticate);
    if (login === undefined) return new Response(null, { status: 401 });
    logged.login = login;
    const scenario = queued.shift();
    if (scenario) return scenarioAnswer(scenario);
    await next();
  });
  routes(app, fake);
  app.notFound((c) =>
    c.json({ errorMessages: [`No route for ${c.req.method} ${c.req.path}`], errors: {} }, 404),
  );

  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
  return fake;
}

async function loginOf(
  authorization: string | undefined,
  authenticate: JiraFakeOptions["authenticate"],
): Promise<string | undefined> {
  if (authorization === BASIC) return ACCOUNT.email;
  const bearer = /^Bearer (\S+)$/.exec(authorization ?? "")?.[1];
  return bearer && authenticate ? authenticate(bearer) : undefined;
}

function scenarioAnswer(scenario: JiraScenario): Response {
  const reset = new Date(Date.now() + 120_000).toISOString().replace(/:\d\d\.\d+Z$/, "Z");
  switch (scenario) {
    case "rate-limited":
      return new Response(null, { status: 429 });
    case "rate-limited-retry-after":
      return new Response(null, {
        status: 429,
        headers: { "retry-after": "7", "x-ratelimit-reset": reset, "ratelimit-reason": "jira-burst-based" },
      });
    case "rate-limited-reset-only":
      return new Response(null, {
        status: 429,
        headers: { "x-ratelimit-reset": reset, "ratelimit-reason": "jira-per-issue-on-write" },
      });
    case "rate-limited-beta":
      return new Response(null, {
        status: 429,
        headers: { "beta-retry-after": "12", "x-beta-ratelimit-reason": "jira-quota-tenant-based" },
      });
    case "rate-limited-beta-reset-only":
      return new Response(null, {
        status: 429,
        headers: { "x-beta-ratelimit-reset": reset, "x-beta-ratelimit-reason": "jira-quota-tenant-based" },
      });
    case "unavailable":
      return new Response(null, { status: 503, headers: { "retry-after": "30" } });
    case "forbidden":
      return new Response(
        JSON.stringify({
          errorMessages: ["You do not have permission to create issues in this project."],
          errors: {},
        }),
        { status: 403, headers: JSON_TYPE },
      );
    case "malformed":
      return new Response('{"issues": [{"id": "20000", "key": "PROJ-1", "fie', {
        status: 200,
        headers: JSON_TYPE,
      });
    case "html":
      return new Response("<!doctype html><html><body>Atlassian is down for maintenance</body></html>", {
        status: 200,
        headers: { "content-type": "text/html" },
      });
  }
}
