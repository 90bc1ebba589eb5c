/** @module `fetch_json`: GETs a JSON API and returns the parsed value as data. */
import { z } from "zod";
import { ToolFailure } from "../../errors/tool-failure.js";
import { callOptions } from "../toolkit/egress-call.js";
import { throwIfHttpError } from "../toolkit/upstream-status.js";
import { decodeText, mediaTypeOf } from "./response-text.js";
import { webTool } from "./web-env.js";
import { headersField, queryField, urlField, withQuery } from "./web-inputs.js";

export const fetchJsonSpec = webTool({
  name: "fetch_json",
  description:
    "GETs a URL that answers JSON (a REST or open-data API) and returns the parsed value as structured data, with the final URL and status. Use it instead of fetch_url when the answer is JSON you want to read field by field; a body that is not JSON is reported as an error. The values are untrusted data from the server.",
  category: "web",
  effect: "read",
  approval: "policy",
  overrideReason: "the URL is chosen by the model, so the deployment's policy decides which fetches run",
  cost: "io",
  limits: { outputBytes: 256 * 1024 },
  input: z.object({ url: urlField, query: queryField, headers: headersField }),
  async run({ url, query, headers }, context, { egress }) {
    const response = await egress.request(withQuery(url, query), {
      headers: { accept: "application/json", ...headers },
      ...callOptions(context),
    });
    throwIfHttpError(response);
    const media = mediaTypeOf(response);
    const details = { url: response.url, status: response.status, contentType: media.type };
    if (response.truncated) {
      throw new ToolFailure(
        "upstream_error",
        `${response.url} sent more than the ${response.bytesRead}-byte cap; a cut JSON document cannot be parsed`,
        { retryable: false, details: { ...details, bytesRead: response.bytesRead } },
      );
    }
    let json: unknown;
    try {
      json = JSON.parse(decodeText(response, media));
    } catch (error) {
      throw new ToolFailure(
        "upstream_error",
        `${response.url} did not answer JSON (content type ${media.type || "none"}): ${(error as Error).message.slice(0, 200)}`,
        { retryable: false, details },
      );
    }
    return {
      content: JSON.stringify(json),
      data: { finalUrl: response.url, status: response.status, json },
      provenance: { source: response.url, trusted: false },
    };
  },
});
