/** @module `http_write`: a POST, PUT, PATCH or DELETE to an external service, approved and idempotent. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { callOptions } from "../toolkit/egress-call.js";
import { httpResult } from "./http-response.js";
import { webTool } from "./web-env.js";
import { headersField, queryField, urlField, withQuery } from "./web-inputs.js";

export const httpWriteSpec = webTool({
  name: "http_write",
  description:
    "Sends a POST, PUT, PATCH or DELETE request that changes something on another service (submit a form, create or update a record through an API, delete a resource), with a text `body` or a `json` value. Every call needs approval and carries an Idempotency-Key header, so a retry does not repeat the change. Only for writes: to read, use fetch_url, fetch_json or http_request. Redirects are not followed.",
  category: "web",
  effect: "external-write",
  // PUT and DELETE replace or remove what was there.
  hints: { destructive: true },
  // It sends the key as Idempotency-Key: a service that honours it will not repeat the change.
  upstreamDeduplicates: true,
  cost: "io",
  limits: { outputBytes: 128 * 1024 },
  input: z.object({
    url: urlField,
    method: z.enum(["POST", "PUT", "PATCH", "DELETE"]),
    headers: headersField,
    query: queryField,
    body: z
      .string()
      .max(1024 * 1024)
      .optional()
      .describe("the request body as text; give this or json, not both"),
    json: z.unknown().optional().describe("a JSON value sent as the body with content-type application/json"),
  }),
  async run({ url, method, headers, query, body, json }, context, { egress }) {
    if (body !== undefined && json !== undefined) {
      throw new ToolFailure("invalid_input", "give either body or json, not both");
    }
    const sent: Record<string, string> = {};
    for (const [name, value] of Object.entries(headers ?? {})) {
      if (name.toLowerCase() === "idempotency-key") {
        throw new ToolFailure("invalid_input", "the Idempotency-Key header is set by toolreg from the call");
      }
      sent[name] = value;
    }
    const hasType = Object.keys(sent).some((name) => name.toLowerCase() === "content-type");
    if (json !== undefined && !hasType) sent["content-type"] = "application/json";
    if (body !== undefined && !hasType) sent["content-type"] = "text/plain; charset=utf-8";
    if (context.idempotencyKey) sent["idempotency-key"] = context.idempotencyKey;
    const response = await egress.request(withQuery(url, query), {
      method,
      headers: sent,
      body: json !== undefined ? JSON.stringify(json) : body,
      ...callOptions(context),
    });
    return httpResult(method, response);
  },
});
