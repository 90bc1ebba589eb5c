/**
 * @module Slack's failures as envelopes a model can act on. Slack answers HTTP 200 with
 * `{"ok": false, "error": "channel_not_found"}` for nearly every failure, so the envelope is read, not the
 * status; its error strings are told apart here, once for every tool, each with what to do about it.
 * Only a rate limit comes as HTTP 429 (with Retry-After). No SDK error leaves this module.
 */
import {
  type WebAPICallResult,
  WebAPIHTTPError,
  WebAPIPlatformError,
  WebAPIRateLimitedError,
  WebAPIRequestError,
} from "@slack/web-api";
import { ToolFailure, upstreamRateLimited } from "toolreg/toolkit";

interface SlackErrorBody extends WebAPICallResult {
  error: string;
  needed?: string;
  provided?: string;
}

/** The credential is dead: no retry or change of input helps, only connecting Slack again. */
const DEAD_CREDENTIAL = new Set([
  "not_authed",
  "invalid_auth",
  "token_revoked",
  "token_expired",
  "account_inactive",
  "no_permission",
  "team_access_not_granted",
]);

/** The request itself is wrong: the model changes it. */
const BAD_REQUEST = new Set([
  "invalid_arguments",
  "invalid_arg_name",
  "invalid_limit",
  "invalid_cursor",
  "invalid_types",
  "invalid_ts_latest",
  "invalid_ts_oldest",
  "invalid_thread_ts",
  "no_text",
  "too_many_attachments",
  "invalid_blocks",
]);

/** Slack's side failed or is busy: the same call may work later. */
const SLACK_FAILED = new Set(["internal_error", "fatal_error", "service_unavailable", "request_timeout"]);

/** Turns whatever a Slack call threw into a ToolFailure about `what` (a ToolFailure from egress passes through). */
export function slackFailure(error: unknown, what: string): ToolFailure {
  if (ToolFailure.isInstance(error)) return error;
  // The SDK wraps what its fetch threw (egress refusing, a timeout); egress already said it well.
  if (error instanceof WebAPIRequestError) {
    if (ToolFailure.isInstance(error.original)) return error.original;
    return new ToolFailure(
      "upstream_error",
      `Slack could not be reached for ${what}: ${error.original.message}`,
      {
        retryable: true,
      },
    );
  }
  if (error instanceof WebAPIRateLimitedError) {
    return upstreamRateLimited(`Slack rate-limited ${what} (each method has a per-minute budget)`, {
      retryAfterMs: error.retryAfter * 1000,
      details: { slackError: "ratelimited" },
    });
  }
  if (error instanceof WebAPIHTTPError) {
    const retryable = error.statusCode >= 500;
    return new ToolFailure(
      "upstream_error",
      `Slack answered HTTP ${error.statusCode} to ${what}${retryable ? "; a retry may work" : ""}`,
      { retryable, details: { status: error.statusCode } },
    );
  }
  if (error instanceof WebAPIPlatformError) return platformFailure(error.data as SlackErrorBody, what);
  const message = error instanceof Error ? error.message : String(error);
  return new ToolFailure("upstream_error", `Slack failed on ${what}: ${message.slice(0, 300)}`, {
    retryable: false,
  });
}

/** An `ok: false` envelope, by its `error` string. */
function platformFailure(body: SlackErrorBody, what: string): ToolFailure {
  // A body that was not JSON arrives here as its text (the SDK's doing): never more than a line of it.
  const code = String(body.error).slice(0, 100);
  const details = { slackError: code };
  const final = (envelopeCode: "upstream_error" | "invalid_input", message: string, extra = {}) =>
    new ToolFailure(envelopeCode, message, { retryable: false, details: { ...details, ...extra } });

  switch (code) {
    case "ratelimited":
    case "rate_limited": {
      const seconds = body.response_metadata?.retryAfter;
      return upstreamRateLimited(`Slack rate-limited ${what} (${code})`, {
        retryAfterMs: seconds === undefined ? undefined : seconds * 1000,
        details,
      });
    }
    case "missing_scope":
      return final(
        "upstream_error",
        `the Slack credential lacks the scope ${body.needed ?? "this method needs"} for ${what}${body.provided ? ` (it has ${body.provided})` : ""}: add the scope to the Slack app and reinstall it, or connect again consenting to it`,
        { needed: body.needed, provided: body.provided },
      );
    case "not_in_channel":
      return final(
        "upstream_error",
        `the Slack app is not a member of the channel for ${what}: invite it (/invite @the-app in that channel), then try again`,
      );
    case "channel_not_found":
      return final(
        "upstream_error",
        `Slack found no channel for ${what}: the id is wrong, or it is a private channel the app was not invited to (Slack answers the same for both); find the id with slack_list_channels`,
      );
    case "is_archived":
      return final(
        "upstream_error",
        `the channel for ${what} is archived, so nothing can be posted there; choose another channel or have someone unarchive it`,
      );
    case "msg_too_long":
      return final(
        "invalid_input",
        `Slack refused ${what} as too long: shorten the text (Slack advises under 4,000 characters) or split it into several messages`,
      );
  }
  if (DEAD_CREDENTIAL.has(code)) {
    // Slack says it with 200 and ok:false; told as the 401 it means, so the toolkit gives the credential up
    // and the next call asks its user to connect Slack again instead of failing the same way.
    return final(
      "upstream_error",
      `Slack refused the credential (${code}) for ${what}: it is revoked, expired, deactivated or not allowed here; the deployment must connect Slack again`,
      { status: 401 },
    );
  }
  if (BAD_REQUEST.has(code))
    return final("invalid_input", `Slack rejected ${what}: ${code}; change the request`);
  if (SLACK_FAILED.has(code)) {
    return new ToolFailure("upstream_error", `Slack failed on ${what} (${code}); a retry may work`, {
      retryable: true,
      details,
    });
  }
  return final("upstream_error", `Slack refused ${what}: ${code}`);
}
