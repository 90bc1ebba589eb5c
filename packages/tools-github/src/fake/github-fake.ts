/**
 * @module A local GitHub for the toolkit's tests: a real HTTP server on 127.0.0.1 that serves the REST
 * endpoints the tools use with GitHub's documented shapes and odd failures. Each area adds its routes
 * (`FakeRoutes`); every request is logged for assertions; a failure can be injected for the next matching
 * request. Every JSON answer passes through `check`, which validates it against GitHub's OpenAPI
 * description, so the fake cannot serve a shape GitHub never sends.
 */
import { type ServerType, serve } from "@hono/node-server";
import type { Context } from "hono";
import { Hono } from "hono";

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  /** Whom the token belongs to, when the fake checks tokens (`authenticate`) and knew this one. */
  login?: string;
}

export interface InjectedFailure {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** Checks one answer against the published description; throws naming the operation and the mismatch. */
export type ResponseCheck = (method: string, routePath: string, status: number, body: unknown) => void;

export interface GithubFake {
  /** The API root to configure the toolkit with (its baseUrl). */
  url: string;
  requests: LoggedRequest[];
  /**
   * Answers the check refused, each naming the operation and the field. Such an answer goes out as a 500
   * carrying the reason, and the harness fails the suite that served it, so a test expecting a failure
   * cannot pass on a shape GitHub never sends.
   */
  checkFailures: string[];
  /** The next request whose method and path match answers this instead (once). */
  failNext(method: string, path: string | RegExp, failure: InjectedFailure): void;
  /** Answers JSON, after checking it against GitHub's description of the route it answers. */
  json(c: Context, status: number, body: unknown, headers?: Record<string, string>): Response;
  close(): Promise<void>;
}

export type FakeRoutes = (app: Hono, fake: GithubFake) => void;

export interface GithubFakeOptions {
  routes: readonly FakeRoutes[];
  check?: ResponseCheck;
  /**
   * Whose token this is; undefined for one unknown, expired or revoked. When given, the fake accepts only
   * the tokens it knows (a consent test's OAuth provider issued) and answers any other with GitHub's 401;
   * a request without a token stays anonymous, as GitHub serves public repositories. Without it, any token
   * is accepted.
   */
  authenticate?(token: string): Promise<{ login: string } | undefined>;
}

/** GitHub's own rule: the API refuses a request without a user agent. */
const NO_USER_AGENT = {
  message:
    "Request forbidden by administrative rules. Please make sure your request has a User-Agent header (https://docs.github.com/en/rest/overview/resources-in-the-rest-api#user-agent-required).",
};

/** GitHub's 401 to a token it does not know (revoked, expired, never issued); GraphQL names its own docs. */
const badCredentials = (path: string) => ({
  message: "Bad credentials",
  documentation_url: path === "/graphql" ? "https://docs.github.com/graphql" : "https://docs.github.com/rest",
  status: "401",
});

export async function startGithubFake({
  routes,
  check,
  authenticate,
}: GithubFakeOptions): Promise<GithubFake> {
  const app = new Hono();
  const requests: LoggedRequest[] = [];
  const checkFailures: string[] = [];
  const failures: { method: string; path: string | RegExp; failure: InjectedFailure }[] = [];
  let server: ServerType | undefined;
  let url = "";

  const fake: GithubFake = {
    get url() {
      return url;
    },
    requests,
    checkFailures,
    failNext(method, path, failure) {
      failures.push({ method, path, failure });
    },
    json(c, status, body, headers = {}) {
      try {
        check?.(c.req.method, c.req.routePath, status, body);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        checkFailures.push(reason);
        return new Response(
          JSON.stringify({ message: `the fake's answer fails the OpenAPI check: ${reason}` }),
          {
            status: 500,
            headers: { "content-type": "application/json; charset=utf-8" },
          },
        );
      }
      return new Response(status === 204 ? null : JSON.stringify(body), {
        status,
        headers: { "content-type": "application/json; charset=utf-8", ...headers },
      });
    },
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };

  app.use("*", async (c, next) => {
    const text = await c.req.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {}
    const path = new URL(c.req.url).pathname;
    const logged: LoggedRequest = {
      method: c.req.method,
      path,
      query: c.req.query(),
      headers: Object.fromEntries(c.req.raw.headers),
      body,
    };
    requests.push(logged);
    if (!c.req.header("user-agent")) return c.json(NO_USER_AGENT, 403);
    // GitHub takes a token under either scheme.
    const token = /^(?:Bearer|token) (\S+)$/i.exec(c.req.header("authorization") ?? "")?.[1];
    if (authenticate && token) {
      const user = await authenticate(token);
      if (!user) return c.json(badCredentials(path), 401);
      logged.login = user.login;
    }
    const index = failures.findIndex(
      (entry) =>
        entry.method === c.req.method &&
        (typeof entry.path === "string" ? entry.path === path : entry.path.test(path)),
    );
    if (index >= 0) {
      const [{ failure }] = failures.splice(index, 1) as [(typeof failures)[number]];
      return new Response(failure.body === undefined ? null : JSON.stringify(failure.body), {
        status: failure.status,
        headers: { "content-type": "application/json; charset=utf-8", ...failure.headers },
      });
    }
    await next();
  });
  for (const add of routes) add(app, fake);
  app.notFound((c) =>
    c.json({ message: "Not Found", documentation_url: "https://docs.github.com/rest", status: "404" }, 404),
  );

  await new Promise<void>((resolve) => {
    server = serve({ fetch: app.fetch, hostname: "127.0.0.1", port: 0 }, (info) => {
      url = `http://127.0.0.1:${info.port}`;
      resolve();
    });
  });
  return fake;
}
