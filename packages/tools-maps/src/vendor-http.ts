/**
 * @module What every maps provider does over HTTP: send through egress with the call's deadline, read
 * the vendor's JSON or say plainly that it was not, check it against the vendor's documented shape, and
 * turn an HTTP failure into the envelope code a model can act on. Each provider gives its request, its
 * reader of the vendor's error body and its answer's schema.
 */
import { STATUS_CODES } from "node:http";
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  retryAfterMs,
  type ToolContext,
  ToolFailure,
  upstreamRateLimited,
} from "toolreg/toolkit";
import type { z } from "zod";

/** Twenty places with their addresses are tens of KB; a megabyte is no answer of these vendors. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/** Vendor error text shown to a model is short and on one line. */
const DETAIL_CHARS = 200;

/** Who answers, for messages: the vendor's name and what a deployment does about a refused key. */
export interface VendorIdentity {
  label: string;
  whenRefused: string;
}

/** Sends a GET (or a JSON POST) and returns the response with its body read as JSON when it is JSON. */
export async function sendRequest(
  egress: EgressClient,
  context: ToolContext,
  url: string,
  init: { method?: "GET" | "POST"; json?: unknown; headers?: Record<string, string> } = {},
): Promise<{ response: EgressResponse; body: unknown }> {
  const body = init.json === undefined ? undefined : JSON.stringify(init.json);
  const response = await egress.request(url, {
    method: init.method ?? "GET",
    headers: {
      accept: "application/json",
      ...(body === undefined ? {} : { "content-type": "application/json" }),
      ...init.headers,
    },
    ...(body === undefined ? {} : { body }),
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...callOptions(context),
  });
  return { response, body: jsonBody(response) };
}

function jsonBody(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/** A successful answer checked against the vendor's documented shape; anything else is `upstream_error`. */
export function parseAnswer<T>(
  identity: VendorIdentity,
  response: EgressResponse,
  body: unknown,
  schema: z.ZodType<T>,
): T {
  const details = { status: response.status, contentType: response.headers["content-type"] ?? "" };
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} sent more than ${response.bytesRead} bytes, which is no answer of its API`,
      { retryable: false, details },
    );
  }
  if (body === undefined) {
    throw new ToolFailure(
      "upstream_error",
      `${identity.label} answered ${response.status} with something other than its JSON (content type ${details.contentType || "none"}); the endpoint may be wrong or behind a proxy`,
      { retryable: false, details },
    );
  }
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const where = issue && issue.path.length > 0 ? issue.path.join(".") : "the answer";
  throw new ToolFailure(
    "upstream_error",
    `${identity.label} answered JSON that is not its documented response (${where}: ${issue?.message ?? "unexpected"}); the API may have changed`,
    { retryable: false, details },
  );
}

/** Vendor text cut to one short line. */
export function shortDetail(text: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > DETAIL_CHARS ? `${line.slice(0, DETAIL_CHARS)}…` : line;
}

function statusLabel(status: number): string {
  return `${status}${STATUS_CODES[status] ? ` ${STATUS_CODES[status]}` : ""}`;
}

const said = (detail: string | undefined) => (detail ? ` (it said: ${detail})` : "");

/** The key was refused: only the deployment can fix that. */
export function credentialFailure(
  identity: VendorIdentity,
  status: number,
  detail: string | undefined,
): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    `${identity.label} refused this deployment's access (${statusLabel(status)}${said(detail)}): ${identity.whenRefused}; retrying will not help`,
    { retryable: false, details: { status } },
  );
}

/** A plan's quota or credits are spent: they come back when the period resets or the plan is raised. */
export function quotaFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  return upstreamRateLimited(
    `${identity.label} says this account's quota or credits are spent${said(detail)}; the deployment can raise its plan`,
    {
      retryAfterMs: retryAfterMs(response.headers["retry-after"]),
      details: { status: response.status, limit: "quota" },
    },
  );
}

/** What a status means when the vendor's body said nothing more specific. */
export function statusFailure(
  identity: VendorIdentity,
  response: EgressResponse,
  detail: string | undefined,
): ToolFailure {
  const { status } = response;
  const wait = retryAfterMs(response.headers["retry-after"]);
  if (status === 401 || status === 403) return credentialFailure(identity, status, detail);
  if (status === 429) {
    return upstreamRateLimited(`${identity.label} is rate limiting these requests${said(detail)}`, {
      retryAfterMs: wait,
      details: { status, limit: "rate" },
    });
  }
  if (status >= 500) {
    return new ToolFailure(
      "upstream_error",
      `${identity.label} failed with ${statusLabel(status)}${said(detail)}; a retry may work`,
      { retryable: true, ...(wait === undefined ? {} : { retryAfterMs: wait }), details: { status } },
    );
  }
  return new ToolFailure(
    "upstream_error",
    `${identity.label} rejected the request with ${statusLabel(status)}${said(detail)}; change the input before retrying`,
    { retryable: false, details: { status } },
  );
}

/** `${base}${path}`: a base URL may carry a path of its own. */
export function endpointUrl(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${path}`;
}
