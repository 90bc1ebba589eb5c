/**
 * @module GitHub's failures as envelopes a model can act on. GitHub answers 404 both for what does not
 * exist and for what the credential may not see; 403 both for a missing permission and for a rate limit;
 * 422 with an `errors[]` list that names the field. Each is told apart here, once for every tool.
 */
import { RequestError } from "@octokit/request-error";
import { ToolFailure, upstreamRateLimited } from "toolreg/toolkit";

interface GithubErrorBody {
  message?: string;
  documentation_url?: string;
  errors?: ({ resource?: string; field?: string; code?: string; message?: string } | string)[];
}

/** Turns whatever a GitHub request threw into a ToolFailure; a ToolFailure (egress, timeout) passes through. */
export function githubFailure(error: unknown, what: string, now = Date.now()): unknown {
  const fromGraphql = graphqlFailure(error, what, now);
  if (fromGraphql) return fromGraphql;
  // Octokit wraps what its fetch throws (an egress refusal, a timeout, a body over the cap) in a RequestError
  // with status 500: the egress client's own failure is the one to tell, not a GitHub 500.
  if (error instanceof RequestError && ToolFailure.isInstance(error.cause)) return error.cause;
  if (ToolFailure.isInstance(error) || !(error instanceof RequestError)) return error;
  const status = error.status;
  const headers = error.response?.headers ?? {};
  const body = (typeof error.response?.data === "object" ? error.response?.data : {}) as GithubErrorBody;
  const said = (body.message ?? error.message).slice(0, 300);
  const details = { status, githubMessage: said, documentation: body.documentation_url };
  const header = (name: string) => {
    const value = (headers as Record<string, unknown>)[name];
    return value === undefined ? undefined : String(value);
  };

  if (status === 429 || (status === 403 && isRateLimit(said, header))) {
    const retryAfter = header("retry-after");
    if (header("x-ratelimit-remaining") === "0" && retryAfter === undefined) {
      const reset = Number(header("x-ratelimit-reset")) * 1000;
      // Search has its own limit, counted by the minute (30, code search 10); the others by the hour.
      const resource = header("x-ratelimit-resource") ?? "core";
      const perMinute = resource === "search" || resource === "code_search";
      return upstreamRateLimited(
        `GitHub's ${resource === "core" ? "primary" : resource} rate limit is spent (${header("x-ratelimit-limit") ?? "?"} requests ${perMinute ? "a minute" : "an hour"} for this credential)`,
        {
          retryAfterMs: Number.isFinite(reset) ? Math.max(0, reset - now) : undefined,
          details: { ...details, limit: "primary", resource },
        },
      );
    }
    return upstreamRateLimited(
      "GitHub's secondary rate limit stopped the request (too many requests at once or too fast)",
      {
        retryAfterMs:
          retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) * 1000 : 60_000,
        details: { ...details, limit: "secondary" },
      },
    );
  }
  if (status === 401) {
    return new ToolFailure(
      "upstream_error",
      `GitHub refused the credential (${said}): it is missing, expired or revoked; the deployment must connect it again`,
      {
        retryable: false,
        details,
      },
    );
  }
  if (status === 403) {
    const needs = header("x-accepted-github-permissions") ?? header("x-accepted-oauth-scopes");
    return new ToolFailure(
      "upstream_error",
      `GitHub forbade ${what}: ${said}${needs ? ` (it needs ${needs})` : ""}`,
      {
        retryable: false,
        details,
      },
    );
  }
  if (status === 404) {
    return new ToolFailure(
      "upstream_error",
      `GitHub found no ${what}: it does not exist, or this credential has no access to it (GitHub answers 404 for both); check the owner, repository and number`,
      {
        retryable: false,
        details,
      },
    );
  }
  if (status === 422 || status === 400) {
    const reasons = (body.errors ?? []).map(describeFieldError).filter(Boolean);
    return new ToolFailure(
      "invalid_input",
      `GitHub rejected ${what}: ${said}${reasons.length ? ` — ${reasons.join("; ")}` : ""}`,
      {
        retryable: false,
        details: { ...details, errors: body.errors },
      },
    );
  }
  if (status === 409) {
    return new ToolFailure("upstream_error", `GitHub reported a conflict on ${what}: ${said}`, {
      retryable: false,
      details,
    });
  }
  if (status >= 500) {
    return new ToolFailure("upstream_error", `GitHub failed on ${what} (${status}); a retry may work`, {
      retryable: true,
      details,
    });
  }
  return new ToolFailure("upstream_error", `GitHub answered ${status} to ${what}: ${said}`, {
    retryable: false,
    details,
  });
}

function isRateLimit(message: string, header: (name: string) => string | undefined): boolean {
  return (
    header("x-ratelimit-remaining") === "0" ||
    header("retry-after") !== undefined ||
    /rate limit/i.test(message)
  );
}

function describeFieldError(error: NonNullable<GithubErrorBody["errors"]>[number]): string {
  if (typeof error === "string") return error;
  if (error.message) return error.field ? `${error.field}: ${error.message}` : error.message;
  const where = [error.resource, error.field].filter(Boolean).join(".");
  return where ? `${where} is ${error.code ?? "invalid"}` : (error.code ?? "");
}

/** One entry of a GraphQL answer's `errors[]`; GitHub puts its `type` (NOT_FOUND, FORBIDDEN, …) beside the message. */
interface GraphqlErrorEntry {
  type?: string;
  code?: string;
  message?: string;
  path?: (string | number)[];
}

/**
 * GitHub's GraphQL API fails with HTTP 200 and an `errors[]` body. Octokit throws that as a
 * GraphqlResponseError; its throttling plugin throws a primary rate limit (type RATE_LIMITED) as a plain
 * "GraphQL Rate Limit Exceeded" error holding the response. Anything else (HTTP 4xx/5xx arrives as a
 * RequestError) is not a GraphQL failure and is left to the REST mapping above.
 * https://docs.github.com/en/graphql/overview/rate-limits-and-query-limits-for-the-graphql-api#exceeding-the-rate-limit
 */
function graphqlFailure(error: unknown, what: string, now: number): ToolFailure | undefined {
  const failed = graphqlErrorsOf(error);
  if (!failed) return undefined;
  const { errors, headers } = failed;
  const header = (name: string) => {
    const value = headers[name];
    return value === undefined ? undefined : String(value);
  };
  const types = new Set(errors.map((entry) => entry.type).filter(Boolean));
  const said = errors
    .map((entry) => entry.message ?? entry.type ?? "")
    .filter(Boolean)
    .slice(0, 3)
    .join("; ")
    .slice(0, 500);
  const details = {
    graphqlErrors: errors.slice(0, 5).map(({ type, path, message }) => ({ type, path, message })),
  };
  const final = (code: "upstream_error" | "invalid_input", message: string, extra = {}) =>
    new ToolFailure(code, message, { retryable: false, details: { ...details, ...extra } });

  const limited = errors.find(
    (entry) =>
      entry.type === "RATE_LIMITED" ||
      entry.type === "RATE_LIMIT" ||
      entry.code === "graphql_rate_limit" ||
      /rate limit/i.test(entry.message ?? ""),
  );
  if (limited) return graphqlRateLimited(limited, header, { ...details, githubMessage: said }, now);
  if (types.has("INSUFFICIENT_SCOPES")) {
    const needed = scopesNamed(errors);
    const granted = header("x-oauth-scopes");
    return final(
      "upstream_error",
      `GitHub refused ${what}: the credential lacks the OAuth scope ${needed.join(" or ") || "the query needs"}${granted === undefined ? "" : ` (it has: ${granted || "none"})`}; the deployment must connect GitHub again with ${needed.length ? needed.join(" or ") : "that scope"} granted`,
      { scopesNeeded: needed, scopesGranted: granted },
    );
  }
  if (types.has("NOT_FOUND")) {
    return final(
      "upstream_error",
      `GitHub found no ${what}: ${said} It does not exist, or this credential has no access to it (GitHub answers NOT_FOUND for both); check the owner, names and numbers`,
    );
  }
  if (types.has("FORBIDDEN")) {
    return final(
      "upstream_error",
      `GitHub forbade ${what}: ${said}; the credential's account lacks the permission (for a project: write access to it; for an organisation: its policy may bar this app or token)`,
    );
  }
  if (types.has("VALIDATION") || types.has("UNPROCESSABLE") || types.has("ARGUMENT_ERROR")) {
    return final("invalid_input", `GitHub rejected ${what}: ${said}`);
  }
  if (
    types.has("SERVICE_UNAVAILABLE") ||
    errors.some((entry) => /something went wrong while executing your query/i.test(entry.message ?? ""))
  ) {
    return new ToolFailure("upstream_error", `GitHub failed on ${what} (${said}); a retry may work`, {
      retryable: true,
      details,
    });
  }
  return final("upstream_error", `GitHub refused the GraphQL request for ${what}: ${said}`);
}

function graphqlErrorsOf(
  error: unknown,
): { errors: GraphqlErrorEntry[]; headers: Record<string, unknown> } | undefined {
  if (!(error instanceof Error) || error instanceof RequestError || ToolFailure.isInstance(error))
    return undefined;
  const thrown = error as Error & {
    errors?: unknown;
    headers?: Record<string, unknown>;
    response?: { data?: { errors?: unknown }; headers?: Record<string, unknown> };
  };
  if (thrown.name === "GraphqlResponseError" && Array.isArray(thrown.errors)) {
    return { errors: thrown.errors as GraphqlErrorEntry[], headers: thrown.headers ?? {} };
  }
  const body = thrown.response?.data?.errors;
  return Array.isArray(body)
    ? { errors: body as GraphqlErrorEntry[], headers: thrown.response?.headers ?? {} }
    : undefined;
}

/** Primary (points an hour, lifted at x-ratelimit-reset) or secondary (GitHub says so; wait retry-after, else a minute). */
function graphqlRateLimited(
  limited: GraphqlErrorEntry,
  header: (name: string) => string | undefined,
  details: Record<string, unknown>,
  now: number,
): ToolFailure {
  const reset = Number(header("x-ratelimit-reset")) * 1000;
  const untilReset = Number.isFinite(reset) && reset > 0 ? Math.max(0, reset - now) : undefined;
  if (/secondary rate limit/i.test(limited.message ?? "")) {
    const retryAfter = header("retry-after");
    return upstreamRateLimited(
      "GitHub's secondary rate limit stopped the request (too many requests at once or too fast)",
      {
        retryAfterMs:
          retryAfter !== undefined && /^\d+$/.test(retryAfter)
            ? Number(retryAfter) * 1000
            : header("x-ratelimit-remaining") === "0"
              ? untilReset
              : 60_000,
        details: { ...details, limit: "secondary" },
      },
    );
  }
  return upstreamRateLimited(
    `GitHub's GraphQL rate limit is spent (${header("x-ratelimit-limit") ?? "?"} points an hour for this credential)`,
    { retryAfterMs: untilReset, details: { ...details, limit: "primary" } },
  );
}

/** The scopes GitHub names in "requires one of the following scopes: ['read:project']". */
function scopesNamed(errors: GraphqlErrorEntry[]): string[] {
  const named = errors.flatMap((entry) => {
    const listed = /requires one of the following scopes: \[([^\]]*)\]/.exec(entry.message ?? "")?.[1] ?? "";
    return listed
      .split(",")
      .map((scope) => scope.trim().replace(/^'|'$/g, ""))
      .filter(Boolean);
  });
  return [...new Set(named)];
}
