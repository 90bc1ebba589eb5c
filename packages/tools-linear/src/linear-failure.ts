/**
 * @module Linear's failures as envelopes a model can act on. Linear is GraphQL: a failure is an `errors[]`
 * array, whatever the HTTP status (200 for "Entity not found" beside `data: null`, 400 for a rate limit),
 * and an answer with data *and* errors is a failure too. Each entry carries `extensions.code` (RATELIMITED,
 * AUTHENTICATION_ERROR, INPUT_ERROR, …) and `extensions.type` (the words @linear/sdk's error.ts maps:
 * "ratelimited", "authentication error", "forbidden", "invalid input", …) with a `userPresentableMessage`.
 * Rate limits (linear.app/developers/rate-limiting): HTTP 400 with `extensions.code` RATELIMITED, and the
 * budget's reset in `X-RateLimit-{Requests,Complexity,Endpoint-Requests}-Reset` as UTC epoch milliseconds.
 */
import {
  type EgressResponse,
  retryAfterMs,
  shortDetail,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import { z } from "zod";

/** One `errors[]` entry, read leniently: a field of an unexpected type is dropped, never the entry. */
export interface LinearGraphqlError {
  message?: string;
  extensions?: { code?: string; type?: string; userPresentableMessage?: string };
}

const text = z.string().optional().catch(undefined);
const LinearGraphqlErrorEntry = z
  .looseObject({
    message: text,
    extensions: z
      .looseObject({ code: text, type: text, userPresentableMessage: text })
      .optional()
      .catch(undefined),
  })
  .catch({});

/**
 * A body that carries GraphQL errors: it is a failure whatever else it carries, and whatever its entries
 * look like (a null code, a numeric message, a bare string are still errors).
 */
export const LinearErrorsBody = z.looseObject({
  errors: z.array(z.unknown()).min(1),
});

/** The entries of an `errors[]` as far as they can be read. */
export function readErrors(errors: readonly unknown[]): LinearGraphqlError[] {
  return errors.map((entry) =>
    typeof entry === "string" ? { message: entry } : LinearGraphqlErrorEntry.parse(entry),
  );
}

/** The budgets Linear reports, each as `x-ratelimit-<budget>-remaining` and `-reset`. */
const BUDGETS = ["endpoint-requests", "requests", "complexity"] as const;

/** Turns Linear's `errors[]` for `what` into one ToolFailure; the most decisive entry wins. */
export function linearFailure(
  errors: readonly LinearGraphqlError[],
  response: EgressResponse,
  what: string,
): ToolFailure {
  const kinds = errors.map(kindOf);
  const index = (kind: ErrorKind) => kinds.indexOf(kind);
  const first = (kind: ErrorKind) => errors[index(kind)];
  const say = (error: LinearGraphqlError | undefined) =>
    shortDetail(error?.extensions?.userPresentableMessage ?? error?.message) ?? "no message";
  const details = (error: LinearGraphqlError | undefined, extra: Record<string, unknown> = {}) => ({
    status: response.status,
    ...(error?.extensions?.code ? { linearCode: error.extensions.code } : {}),
    ...(error?.extensions?.type ? { linearType: error.extensions.type } : {}),
    ...extra,
  });

  if (index("rate-limited") >= 0) {
    const error = first("rate-limited");
    const limited = exhaustedBudget(response);
    return upstreamRateLimited(
      `Linear rate-limited ${what} (${say(error)}${limited.endpoint ? `; the ${limited.endpoint} endpoint has its own lower limit` : ""})`,
      { retryAfterMs: limited.waitMs, details: details(error, { limit: limited.budget }) },
    );
  }
  if (index("authentication") >= 0) {
    // Told as the 401 it means: the toolkit then reports auth_required naming the credential to configure.
    const error = first("authentication");
    return new ToolFailure(
      "upstream_error",
      `Linear refused the API key for ${what} (${say(error)}): it is revoked, mistyped or sent with "Bearer" (an API key goes bare); the deployment must configure a valid key`,
      { retryable: false, details: details(error, { status: 401 }) },
    );
  }
  if (index("forbidden") >= 0) {
    const error = first("forbidden");
    return new ToolFailure(
      "upstream_error",
      `Linear refused ${what} (${say(error)}): the API key's permissions or team access do not cover it; the deployment can create a key with write access to that team`,
      { retryable: false, details: details(error) },
    );
  }
  if (index("not-found") >= 0) {
    const error = first("not-found");
    return new ToolFailure(
      "invalid_input",
      `Linear found nothing for ${what} (${say(error)}): the id or identifier is wrong, or the API key cannot see it; find it with linear_search_issues, linear_list_teams or linear_list_states`,
      { retryable: false, details: details(error) },
    );
  }
  if (index("invalid-input") >= 0) {
    const error = first("invalid-input");
    return new ToolFailure("invalid_input", `Linear rejected ${what}: ${say(error)}; change the input`, {
      retryable: false,
      details: details(error),
    });
  }
  const error = errors[0];
  if (index("linear-failed") >= 0 || response.status >= 500) {
    const wait = retryAfterMs(response.headers["retry-after"]);
    return new ToolFailure("upstream_error", `Linear failed on ${what} (${say(error)}); a retry may work`, {
      retryable: true,
      ...(wait === undefined ? {} : { retryAfterMs: wait }),
      details: details(first("linear-failed") ?? error),
    });
  }
  return new ToolFailure(
    "upstream_error",
    `Linear refused ${what}: ${say(error)}; the query may not match Linear's current API`,
    { retryable: false, details: details(error) },
  );
}

type ErrorKind =
  | "rate-limited"
  | "authentication"
  | "forbidden"
  | "not-found"
  | "invalid-input"
  | "linear-failed"
  | "other";

function kindOf(error: LinearGraphqlError): ErrorKind {
  const code = error.extensions?.code?.toUpperCase() ?? "";
  const type = error.extensions?.type?.toLowerCase() ?? "";
  if (code === "RATELIMITED" || type === "ratelimited") return "rate-limited";
  if (code === "AUTHENTICATION_ERROR" || type === "authentication error") return "authentication";
  if (code === "FORBIDDEN" || type === "forbidden" || type === "feature not accessible") return "forbidden";
  // Linear says a missing entity as an input error: "Entity not found: Issue", "Could not find referenced Issue."
  if (/^entity not found\b/i.test(error.message ?? "")) return "not-found";
  if (code === "INPUT_ERROR" || type === "invalid input" || type === "user error") return "invalid-input";
  if (code === "INTERNAL_SERVER_ERROR" || type === "internal error" || type === "lock timeout")
    return "linear-failed";
  return "other";
}

/**
 * Which budget ran out and how long until it refills: the latest reset among the exhausted budgets (each
 * reset is UTC epoch milliseconds), else Retry-After, else unknown.
 */
function exhaustedBudget(response: EgressResponse): {
  budget: string;
  waitMs: number | undefined;
  endpoint: string | undefined;
} {
  const { headers } = response;
  const now = Date.now();
  let budget: string | undefined;
  let latest: number | undefined;
  for (const name of BUDGETS) {
    const remaining = Number(headers[`x-ratelimit-${name}-remaining`]);
    const reset = epochMs(headers[`x-ratelimit-${name}-reset`]);
    if (!Number.isFinite(remaining) || remaining > 0 || reset === undefined) continue;
    if (latest === undefined || reset > latest) {
      latest = reset;
      budget = name;
    }
  }
  const endpoint =
    budget === "endpoint-requests" ? shortDetail(headers["x-ratelimit-endpoint-name"], 60) : undefined;
  if (latest !== undefined)
    return { budget: budget ?? "requests", waitMs: Math.max(0, latest - now), endpoint };
  return { budget: "requests", waitMs: retryAfterMs(headers["retry-after"], now), endpoint };
}

/** Linear documents milliseconds; a value too small for that is read as seconds rather than as 1970. */
function epochMs(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  const number = Number(value);
  return number < 100_000_000_000 ? number * 1000 : number;
}
