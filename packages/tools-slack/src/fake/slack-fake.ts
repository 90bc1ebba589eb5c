/**
 * @module A local Slack Web API for the toolkit's tests: a real HTTP server on 127.0.0.1 answering
 * `POST /api/METHOD` the way Slack documents it. What it reproduces, and where Slack says so:
 * - every answer is HTTP 200 with a JSON envelope, `{"ok": false, "error": "..."}` on failure (Slack's Web
 *   API overview, docs.slack.dev/apis/web-api); only a rate limit is HTTP 429, with Retry-After in seconds
 *   and `"error": "ratelimited"` (docs.slack.dev/apis/web-api/rate-limits);
 * - arguments come form-encoded or in the query string, and the token "as an HTTP Authorization header or
 *   alternatively, as a POST parameter" (docs.slack.dev/reference/methods/conversations.list, Arguments);
 *   none is `not_authed`, an unknown one `invalid_auth`, a dead one `token_revoked` or `account_inactive`
 *   (the Errors section of every method page, e.g. docs.slack.dev/reference/methods/chat.postMessage);
 * - `missing_scope` names the scope `needed` and the token's scopes `provided` (the fields @slack/web-api's
 *   response types declare on every method's answer);
 * - a per-method, per-token budget a minute, as Slack's tiers set (api.slack.com/changelog/2018-03-great-rate-limits:
 *   Tier 2 is 20+ a minute; docs.slack.dev/changelog/2025/05/29/rate-limit-changes-for-non-marketplace-apps:
 *   conversations.history at 1 a minute); the harness sets one when a test is about it;
 * - `warning` (comma-separated) beside `response_metadata.warnings` on an answer that still succeeded
 *   (Slack Platform Blog, "Well wishes and warnings in the Web API", 2016;
 *   api.slack.com/changelog/2018-04-truncating-really-long-messages).
 * Methods are added as tables (`FakeMethods`); every request is logged for assertions; a test can make the
 * next call of a method fail, or carry a warning.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type FakeWorkspace, TOKENS } from "./workspace.js";

export interface LoggedRequest {
  httpMethod: string;
  /** The Web API method called, e.g. chat.postMessage. */
  method: string;
  path: string;
  headers: Record<string, string>;
  /** The arguments, from the query string and the form body together. */
  args: Record<string, string>;
}

/** An answer the fake makes instead of the method's own, once; a string body is sent as it is. */
export interface InjectedAnswer {
  status?: number;
  body: Record<string, unknown> | string;
  headers?: Record<string, string>;
  /** Waits this long before answering, as a slow Slack would. */
  delayMs?: number;
}

/** What a method sees once the token and its scopes passed: its arguments and the workspace. */
export interface FakeCall {
  args: Record<string, string>;
  workspace: FakeWorkspace;
}

/** One Web API method: the scopes it needs for these arguments, and its envelope. */
export interface FakeMethod {
  scopes(args: Record<string, string>): string[];
  answer(call: FakeCall): Record<string, unknown>;
}

export type FakeMethods = Record<string, FakeMethod>;

export interface SlackFakeOptions {
  methods: FakeMethods;
  workspace: FakeWorkspace;
  /** Requests a token may make to a method in any minute; unlimited when absent. */
  perMinute?: Readonly<Record<string, number>>;
}

export interface SlackFake {
  /** The Web API root to configure the toolkit with (its baseUrl). */
  url: string;
  requests: LoggedRequest[];
  workspace: FakeWorkspace;
  /** The next call of `method` answers this instead of the method. */
  failNext(method: string, answer: InjectedAnswer): void;
  /** The next successful answer of `method` carries this warning, as Slack adds one. */
  warnNext(method: string, warning: string): void;
  close(): Promise<void>;
}

const WINDOW_MS = 60_000;

export async function startSlackFake({
  methods,
  workspace,
  perMinute = {},
}: SlackFakeOptions): Promise<SlackFake> {
  const requests: LoggedRequest[] = [];
  const injected = new Map<string, InjectedAnswer[]>();
  const warnings = new Map<string, string[]>();
  const calls = new Map<string, number[]>();

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    const method = url.pathname.replace(/^\/api\//, "");
    const args = { ...Object.fromEntries(url.searchParams), ...(await readArguments(request)) };
    requests.push({
      httpMethod: request.method ?? "",
      method,
      path: url.pathname,
      headers: flatHeaders(request),
      args,
    });
    const send = (
      body: Record<string, unknown> | string,
      status = 200,
      headers: Record<string, string> = {},
    ) => {
      const json = typeof body !== "string";
      response.writeHead(status, {
        "content-type": json ? "application/json; charset=utf-8" : "text/html; charset=utf-8",
        ...headers,
      });
      response.end(json ? JSON.stringify(body) : body);
    };

    const next = injected.get(method)?.shift();
    if (next) {
      if (next.delayMs) await new Promise((resolve) => setTimeout(resolve, next.delayMs));
      return send(next.body, next.status, next.headers);
    }
    const known = url.pathname.startsWith("/api/") ? methods[method] : undefined;
    if (!known) return send({ ok: false, error: "unknown_method" });

    const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const presented = bearer ?? args.token;
    if (presented === undefined) return send({ ok: false, error: "not_authed" });
    const token = TOKENS[presented];
    if (!token) return send({ ok: false, error: "invalid_auth" });
    if (token.dead) return send({ ok: false, error: token.dead });

    const budget = perMinute[method];
    if (budget !== undefined) {
      const key = `${presented} ${method}`;
      const now = Date.now();
      const recent = (calls.get(key) ?? []).filter((at) => at > now - WINDOW_MS);
      if (recent.length >= budget) {
        const wait = Math.max(1, Math.ceil(((recent[0] ?? now) + WINDOW_MS - now) / 1000));
        return send({ ok: false, error: "ratelimited" }, 429, { "retry-after": String(wait) });
      }
      calls.set(key, [...recent, now]);
    }

    const needed = known.scopes(args).find((scope) => !token.scopes.includes(scope));
    if (needed !== undefined) {
      return send({ ok: false, error: "missing_scope", needed, provided: token.scopes.join(",") });
    }
    const body = known.answer({ args, workspace });
    const warning = body.ok === true ? warnings.get(method)?.shift() : undefined;
    send(warning === undefined ? body : withWarning(body, warning));
  };

  const server: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;

  return {
    url: `http://127.0.0.1:${port}/api`,
    requests,
    workspace,
    failNext(method, answer) {
      injected.set(method, [...(injected.get(method) ?? []), answer]);
    },
    warnNext(method, warning) {
      warnings.set(method, [...(warnings.get(method) ?? []), warning]);
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Adds a warning the way Slack does: the top-level field, and the list in response_metadata. */
function withWarning(body: Record<string, unknown>, warning: string): Record<string, unknown> {
  const metadata = (body.response_metadata ?? {}) as { warnings?: string[] };
  const listed = [...(metadata.warnings ?? []), warning];
  return { ...body, warning: listed.join(","), response_metadata: { ...metadata, warnings: listed } };
}

async function readArguments(request: IncomingMessage): Promise<Record<string, string>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  if (text === "") return {};
  const type = request.headers["content-type"] ?? "";
  if (type.startsWith("application/json")) {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    return Object.fromEntries(
      Object.entries(parsed).map(([name, value]) => [
        name,
        typeof value === "string" ? value : JSON.stringify(value),
      ]),
    );
  }
  return Object.fromEntries(new URLSearchParams(text));
}

function flatHeaders(request: IncomingMessage): Record<string, string> {
  return Object.fromEntries(
    Object.entries(request.headers).map(([name, value]) => [
      name,
      Array.isArray(value) ? value.join(", ") : (value ?? ""),
    ]),
  );
}
