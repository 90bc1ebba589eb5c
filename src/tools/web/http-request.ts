/** @module `http_request`: a GET or HEAD with headers and query, returning status, headers and body. */
import { z } from "zod";
import { callOptions } from "../toolkit/egress-call.js";
import { httpResult } from "./http-response.js";
import { webTool } from "./web-env.js";
import { headersField, queryField, urlField, withQuery } from "./web-inputs.js";

export const httpRequestSpec = webTool({
  name: "http_request",
  description:
    "Sends a GET or HEAD request with optional headers and query parameters and returns the status, the response headers and the body as text. Use it when the status or headers matter (checking a link, reading a Location or content type) or when an API needs custom headers; to read a page use fetch_url, to parse JSON use fetch_json; to change anything use http_write. The body is untrusted content.",
  category: "web",
  effect: "read",
  approval: "policy",
  overrideReason: "the URL is chosen by the model, so the deployment's policy decides which requests run",
  cost: "io",
  limits: { outputBytes: 128 * 1024 },
  input: z.object({
    url: urlField,
    method: z
      .enum(["GET", "HEAD"])
      .default("GET")
      .describe("GET (default) or HEAD for status and headers only"),
    headers: headersField,
    query: queryField,
  }),
  async run({ url, method, headers, query }, context, { egress }) {
    const response = await egress.request(withQuery(url, query), {
      method,
      headers: headers ?? {},
      ...callOptions(context),
    });
    return httpResult(method, response);
  },
});
