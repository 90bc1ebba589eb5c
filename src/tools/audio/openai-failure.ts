/**
 * @module What an OpenAI audio endpoint's error answer means for a model: the status and OpenAI's error
 * object (`{ error: { message, type, param, code } }`, https://platform.openai.com/docs/guides/error-codes)
 * read into the envelope code to act on. A spent quota and a rate limit both arrive as 429 and are told
 * apart by `code`, because one lifts in seconds and the other only when someone pays.
 */
import { STATUS_CODES } from "node:http";
import { z } from "zod";
import type { EgressResponse } from "../../egress/egress-client.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { retryAfterMs, upstreamRateLimited } from "../toolkit/upstream-status.js";

/** OpenAI's error object, as its OpenAPI description's ErrorResponse gives it. */
const OpenAiErrorSchema = z.object({
  error: z.object({
    message: z.string(),
    type: z.string().nullish(),
    param: z.string().nullish(),
    code: z.string().nullish(),
  }),
});

/** Vendor text shown to a model is short and on one line: it explains, it does not converse. */
const DETAIL_CHARS = 200;

function detailOf(message: string | undefined): string | undefined {
  if (message === undefined) return undefined;
  const line = message
    .replace(/\p{Cc}+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  if (line === "") return undefined;
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}

/** The body as OpenAI's error object, or undefined when it is not one (a proxy's page, a cut body). */
export function openAiError(
  response: EgressResponse,
): z.output<typeof OpenAiErrorSchema>["error"] | undefined {
  if (response.truncated) return undefined;
  try {
    const parsed = OpenAiErrorSchema.safeParse(JSON.parse(response.body.toString("utf8")));
    return parsed.success ? parsed.data.error : undefined;
  } catch {
    return undefined;
  }
}

/** Who failed, for messages: `OpenAI (whisper-1)`, and the credential reference a refused key is named by. */
export interface OpenAiIdentity {
  label: string;
  credentialRef: string;
}

/** The ToolFailure an OpenAI 4xx or 5xx answer means. */
export function openAiFailure(identity: OpenAiIdentity, response: EgressResponse): ToolFailure {
  const { status } = response;
  const error = openAiError(response);
  const detail = detailOf(error?.message);
  const said = detail ? ` (${detail})` : "";
  const statusLabel = `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
  const details = {
    status,
    ...(error?.type ? { type: error.type } : {}),
    ...(error?.code ? { vendorCode: error.code } : {}),
  };
  if (status === 401 || status === 403) {
    return new ToolFailure(
      "upstream_error",
      `${identity.label} refused this deployment's access (${statusLabel}${said}): the deployment must set the credential "${identity.credentialRef}" to a valid OpenAI API key with access to this model; retrying will not help`,
      { retryable: false, details },
    );
  }
  if (status === 429 && (error?.code === "insufficient_quota" || error?.type === "insufficient_quota")) {
    // Final: the quota lifts when the account is paid for, not after a wait (a rate limit is retryable by code).
    return new ToolFailure(
      "upstream_error",
      `${identity.label} says this account's quota is spent${said}; the deployment must add credit or raise its limit, retrying will not help`,
      { retryable: false, details: { ...details, limit: "quota" } },
    );
  }
  if (status === 429) {
    return upstreamRateLimited(`${identity.label} is rate limiting these requests${said}`, {
      retryAfterMs: retryAfterMs(response.headers["retry-after"]),
      details: { ...details, limit: "rate" },
    });
  }
  if (status === 413) {
    return new ToolFailure(
      "invalid_input",
      `${identity.label} refused the audio as too large (${statusLabel}${said}); send a shorter or more compressed recording (under 25 MB)`,
      { retryable: false, details: { ...details, reason: "too_large" } },
    );
  }
  if (status >= 500) {
    const wait = retryAfterMs(response.headers["retry-after"]);
    return new ToolFailure(
      "upstream_error",
      `${identity.label} failed with ${statusLabel}${said}; a retry may work`,
      {
        retryable: true,
        ...(wait === undefined ? {} : { retryAfterMs: wait }),
        details,
      },
    );
  }
  // A 400 about the file (its format, its size) is the caller's to fix; any other 4xx is a request this
  // deployment built wrongly (a model the account cannot use), which the caller cannot fix.
  const aboutTheFile =
    status === 400 && (error?.param === "file" || /\b(file|audio|format)\b/i.test(error?.message ?? ""));
  return new ToolFailure(
    aboutTheFile ? "invalid_input" : "upstream_error",
    aboutTheFile
      ? `${identity.label} refused the audio (${statusLabel}${said}); send a recording in one of flac, m4a, mp3, mp4, ogg, wav or webm`
      : `${identity.label} rejected the request with ${statusLabel}${said}; the deployment's configuration may need changing`,
    { retryable: false, details },
  );
}
