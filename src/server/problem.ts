/** @module Every request-level error in one shape: RFC 9457 problem details, with a code a client can switch on. */
import { SECURITY_HEADERS } from "./security-headers.js";

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  408: "Request Timeout",
  409: "Conflict",
  413: "Content Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

/** A problem response; `code` is stable (snake_case), `detail` is for a person or a model to act on. */
export function problem(
  status: number,
  code: string,
  detail: string,
  extensions: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Response {
  const body: Problem = {
    type: `urn:toolreg:problem:${code}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    code,
    ...extensions,
  };
  return new Response(JSON.stringify(body), {
    status,
    headers: { ...SECURITY_HEADERS, "content-type": "application/problem+json", ...headers },
  });
}
