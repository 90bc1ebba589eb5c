/**
 * @module What every research source does over HTTP, said once: a GET through egress with the call's
 * deadline and a User-Agent naming the deployment (Wikimedia and NCBI both ask for one), a bounded body,
 * an HTTP failure told as the envelope code a model can act on, and a JSON answer checked against the
 * vendor's documented shape. Each source adds what its API says in its own body.
 */
import {
  callOptions,
  type EgressClient,
  type EgressResponse,
  parseAnswer,
  statusFailure as sharedStatusFailure,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import type { z } from "zod";

/** A page of search results is tens of KB; an arXiv feed of 20 abstracts about 100 KB. More is no answer. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** Who answered, for messages, and how each request names the deployment. */
export interface SourceClient {
  label: string;
  egress: EgressClient;
  userAgent: string;
}

/** Sends a GET and returns the response whatever its status; egress failures pass through as they are. */
export function getFrom(
  client: SourceClient,
  url: string,
  accept: string,
  context: ToolContext,
): Promise<EgressResponse> {
  return client.egress.request(url, {
    method: "GET",
    headers: { accept, "user-agent": client.userAgent },
    maxResponseBytes: MAX_RESPONSE_BYTES,
    ...callOptions(context),
  });
}

/** The body as text, or a failure when egress cut it at the bound. */
export function bodyText(client: SourceClient, response: EgressResponse): string {
  if (response.truncated) {
    throw new ToolFailure(
      "upstream_error",
      `${client.label} sent more than ${response.bytesRead} bytes, which is no search answer`,
      { retryable: false, details: { status: response.status } },
    );
  }
  return response.body.toString("utf8");
}

/** The body as JSON, or undefined when it is not JSON (an error page from a proxy, say). */
function jsonOf(response: EgressResponse): unknown {
  if (response.truncated) return undefined;
  try {
    return JSON.parse(response.body.toString("utf8"));
  } catch {
    return undefined;
  }
}

/**
 * GETs a JSON answer: `readError` sees every answer's body first (MediaWiki reports errors under a 200 too)
 * and may return the failure it means; an error status it leaves is told by `statusFailure`; a 2xx is read
 * against `schema`.
 */
export async function getJson<T>(
  client: SourceClient,
  url: string,
  context: ToolContext,
  schema: z.ZodType<T>,
  readError: (response: EgressResponse, body: unknown) => ToolFailure | undefined = () => undefined,
): Promise<{ answer: T; response: EgressResponse }> {
  const response = await getFrom(client, url, "application/json", context);
  const failure = readError(response, jsonOf(response));
  if (failure) throw failure;
  if (response.status >= 400) throw statusFailure(client, response);
  return { answer: parseJson(client, response, schema), response };
}

/** A 2xx answer read as the vendor's documented JSON; anything else is a final `upstream_error`. */
export function parseJson<T>(client: SourceClient, response: EgressResponse, schema: z.ZodType<T>): T {
  const text = bodyText(client, response);
  const contentType = response.headers["content-type"] ?? "";
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ToolFailure(
      "upstream_error",
      `${client.label} answered ${response.status} with something other than JSON (content type ${contentType || "none"}); the endpoint may be wrong or failing`,
      { retryable: false, details: { status: response.status, contentType } },
    );
  }
  return parseAnswer(identityOf(client), response, json, schema);
}

/**
 * What an HTTP error status means when the vendor's body said nothing more specific, as toolreg/toolkit's
 * `statusFailure` says it. The sources take no key: a refusal is of the deployment's address or User-Agent.
 */
export function statusFailure(client: SourceClient, response: EgressResponse, detail?: string): ToolFailure {
  return sharedStatusFailure(identityOf(client), response, detail);
}

function identityOf(client: SourceClient): VendorIdentity {
  return {
    label: client.label,
    whenRefused: `${client.label} takes no key, so it refused this deployment's address or User-Agent; an operator must look (a contactEmail in the configuration names the deployment)`,
  };
}
