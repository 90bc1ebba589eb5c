/**
 * @module Jira's REST API v3 for one call, through toolreg's egress. No SDK: jira.js (6.x) calls the global
 * `fetch` with no way to pass another, so it could not send through egress (the README says more). Every
 * request goes to the configured API root only, with the credential egress injects there; the answer is
 * checked against the documented shape or refused as `upstream_error`, and a failure is told by
 * jira-failure.ts. Nothing is retried here: a write retried is a write done twice, and retries are the seam's.
 */
import {
  callOptions,
  type EgressClient,
  parseAnswer,
  type ToolContext,
  type VendorIdentity,
} from "toolreg/toolkit";
import type { z } from "zod";
import { jiraFailure } from "./jira-failure.js";

/** An issue with its description and comments is tens of KB; a JSON answer past this is no answer of Jira's. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

export interface JiraRequest {
  method: "GET" | "POST" | "PUT";
  /** `/rest/api/3/…`, its path segments already checked or encoded. */
  path: string;
  query?: Readonly<Record<string, string | undefined>>;
  /** Sent as JSON. */
  json?: unknown;
}

/** Jira as one call sees it. `what` names the thing asked for, so a failure says what it was about. */
export interface JiraCall {
  /** A request whose answer is checked against `schema`. */
  send<T>(what: string, request: JiraRequest, schema: z.ZodType<T>): Promise<T>;
  /** A request Jira answers with no body of use (204 No Content). */
  sendExpectingNothing(what: string, request: JiraRequest): Promise<void>;
}

export interface JiraClientOptions {
  /** Where `/rest/api/3/…` lives, without a trailing slash. */
  apiRoot: string;
  egress: EgressClient;
  identity: VendorIdentity;
}

export function createJiraClient({
  apiRoot,
  egress,
  identity,
}: JiraClientOptions): (context: ToolContext) => JiraCall {
  return (context) => {
    const exchange = async (what: string, request: JiraRequest) => {
      const url = new URL(`${apiRoot}${request.path}`);
      for (const [name, value] of Object.entries(request.query ?? {})) {
        if (value !== undefined) url.searchParams.set(name, value);
      }
      const body = request.json === undefined ? undefined : JSON.stringify(request.json);
      const response = await egress.request(url.href, {
        method: request.method,
        headers: {
          accept: "application/json",
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body }),
        maxResponseBytes: MAX_RESPONSE_BYTES,
        ...callOptions(context),
      });
      const json = jsonOf(response.body, response.truncated);
      if (response.status >= 400) throw jiraFailure(identity, response, json, what);
      return { response, json };
    };
    return {
      async send(what, request, schema) {
        const { response, json } = await exchange(what, request);
        return parseAnswer(identity, response, json, schema);
      },
      async sendExpectingNothing(what, request) {
        await exchange(what, request);
      },
    };
  };
}

function jsonOf(body: Buffer, truncated: boolean): unknown {
  if (truncated || body.length === 0) return undefined;
  try {
    return JSON.parse(body.toString("utf8"));
  } catch {
    return undefined;
  }
}
