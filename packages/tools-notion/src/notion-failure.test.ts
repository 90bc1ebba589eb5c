import {
  APIErrorCode,
  APIResponseError,
  RequestTimeoutError,
  UnknownHTTPResponseError,
} from "@notionhq/client";
import { ToolFailure } from "toolreg/toolkit";
import { describe, expect, it } from "vitest";
import { notionFailure } from "./notion-failure.js";

/** An APIResponseError as the SDK builds it from Notion's error body. */
function apiError(status: number, code: string, message: string, headers: Record<string, string> = {}) {
  return new APIResponseError({
    code: code as APIErrorCode,
    status,
    message,
    headers: new Headers(headers),
    rawBodyText: JSON.stringify({ object: "error", status, code, message }),
    additional_data: undefined,
    request_id: "r1",
  });
}

describe("notionFailure", () => {
  it("passes egress's own failures through, unwrapped", () => {
    const refused = new ToolFailure("egress_refused", "blocked");
    expect(notionFailure(refused, "x")).toBe(refused);
    expect(notionFailure(new TypeError("fetch failed", { cause: refused }), "x")).toBe(refused);
  });

  it("tells 401 with status 401, so the toolkit host asks for the credential again", () => {
    const failure = notionFailure(
      apiError(401, APIErrorCode.Unauthorized, "API token is invalid."),
      "page p",
    );
    expect(failure.envelopeCode).toBe("upstream_error");
    expect(failure.details).toMatchObject({ status: 401, notionCode: "unauthorized" });
  });

  it("tells a validation_error as invalid_input with Notion's message on one line", () => {
    const failure = notionFailure(
      apiError(400, APIErrorCode.ValidationError, "body failed validation:\nbody.x should be defined"),
      "the write",
    );
    expect(failure.envelopeCode).toBe("invalid_input");
    expect(failure.message).toBe(
      "Notion rejected the write: body failed validation: body.x should be defined; change the request",
    );
  });

  it("reads Retry-After on a 429, and on a 503 whose code the SDK does not know", () => {
    expect(
      notionFailure(apiError(429, APIErrorCode.RateLimited, "slow", { "retry-after": "3" }), "x")
        .retryAfterMs,
    ).toBe(3000);
    // database_connection_unavailable is not among the SDK's codes: it arrives as UnknownHTTPResponseError.
    const busy = new UnknownHTTPResponseError({
      status: 503,
      message: undefined,
      headers: new Headers({ "retry-after": "2" }),
      rawBodyText: JSON.stringify({
        object: "error",
        status: 503,
        code: "database_connection_unavailable",
        message: "busy",
      }),
    });
    expect(notionFailure(busy, "x")).toMatchObject({
      envelopeCode: "upstream_error",
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(notionFailure(apiError(504, APIErrorCode.GatewayTimeout, "slow"), "x")).toMatchObject({
      retryable: true,
    });
  });

  it("tells an error page without Notion's body by its status, and the SDK's timeout as timeout", () => {
    const page = new UnknownHTTPResponseError({
      status: 502,
      message: undefined,
      headers: new Headers(),
      rawBodyText: "<html>",
    });
    expect(notionFailure(page, "x")).toMatchObject({ envelopeCode: "upstream_error", retryable: true });
    expect(notionFailure(new RequestTimeoutError(), "x")).toMatchObject({
      envelopeCode: "timeout",
      retryable: true,
    });
  });

  it("never lets anything else escape as other than a ToolFailure", () => {
    const failure = notionFailure("boom", "x");
    expect(ToolFailure.isInstance(failure)).toBe(true);
    expect(failure.message).toBe("Notion failed on x: boom");
  });
});
