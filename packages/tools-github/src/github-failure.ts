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
      return upstreamRateLimited(
        `GitHub's primary rate limit is spent (${header("x-ratelimit-limit") ?? "?"} requests an hour for this credential)`,
        {
          retryAfterMs: Number.isFinite(reset) ? Math.max(0, reset - now) : undefined,
          details: { ...details, limit: "primary" },
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
