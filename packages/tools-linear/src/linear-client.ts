/**
 * @module Linear's GraphQL API for one call: a POST of `{ query, variables }` through toolreg's egress, the
 * API key injected there (bare, as Linear takes a personal key), and the answer read as GraphQL must be:
 * any `errors[]` is a failure (linear-failure.ts) even beside data and even with HTTP 200, and the data
 * is checked against the shape the query asked for.
 *
 * Why not @linear/sdk: its LinearGraphQLClient sends with the global `fetch` and takes no fetch of its own
 * (packages/sdk/src/graphql-client.ts), so it cannot go through egress; its LinearSdk takes a request
 * function, but its generated documents ask for every field of an entity, which Linear's complexity budget
 * charges for. The queries here are small.
 */
import {
  type EgressClient,
  parseAnswer,
  sendRequest,
  shortDetail,
  statusFailure,
  type ToolContext,
  ToolFailure,
  type VendorIdentity,
} from "toolreg/toolkit";
import { z } from "zod";
import { LinearErrorsBody, linearFailure, readErrors } from "./linear-failure.js";

/** Linear as one call sees it. `what` names the thing asked for, so a failure says what it was about. */
export interface LinearCall {
  /** The endpoint, named as the source of untrusted results. */
  readonly endpoint: string;
  request<T>(
    what: string,
    document: string,
    variables: Record<string, unknown>,
    data: z.ZodType<T>,
  ): Promise<T>;
}

export interface LinearClientOptions {
  endpoint: string;
  egress: EgressClient;
  credentialRef: string;
}

/** A GraphQL answer is small here: pages of at most 50 issues with a few fields each. */
const MAX_RESPONSE_BYTES = 2 * 1024 * 1024;

/** Whether a failure is an answer cut at MAX_RESPONSE_BYTES, which a tool may retry asking for less. */
export function isTooLarge(error: unknown): boolean {
  return ToolFailure.isInstance(error) && error.details?.tooLarge === true;
}

export function createLinearClient({
  endpoint,
  egress,
  credentialRef,
}: LinearClientOptions): (context: ToolContext) => LinearCall {
  const identity: VendorIdentity = {
    label: "Linear",
    whenRefused: `the deployment must set the credential "${credentialRef}" to a valid Linear API key`,
  };
  return (context) => ({
    endpoint,
    async request(what, document, variables, data) {
      const { response, body } = await sendRequest(egress, context, endpoint, {
        method: "POST",
        json: { query: document, variables },
        maxResponseBytes: MAX_RESPONSE_BYTES,
      });
      if (response.truncated) {
        throw new ToolFailure(
          "upstream_error",
          `Linear's answer for ${what} was larger than ${MAX_RESPONSE_BYTES} bytes; ask for less`,
          { retryable: false, details: { status: response.status, tooLarge: true } },
        );
      }
      const failed = LinearErrorsBody.safeParse(body);
      if (failed.success) throw linearFailure(readErrors(failed.data.errors), response, what);
      if (response.status >= 400) {
        const message = z.looseObject({ message: z.string() }).safeParse(body);
        throw statusFailure(
          identity,
          response,
          message.success ? shortDetail(message.data.message) : undefined,
        );
      }
      return parseAnswer(identity, response, body, z.object({ data: data })).data;
    },
  });
}
