/** @module The result http_request and http_write share: status, headers and the body as text when it is text. */
import type { EgressResponse } from "../../egress/egress-client.js";
import { throwIfHttpError } from "../toolkit/upstream-status.js";
import { decodeText, isText, mediaTypeOf } from "./response-text.js";

/** Throws for an HTTP error status; otherwise the body (or a note on it) as fenced content, the rest as data. */
export function httpResult(method: string, response: EgressResponse) {
  throwIfHttpError(response);
  const media = mediaTypeOf(response);
  let content: string;
  if (method === "HEAD") content = `HEAD ${response.url} answered ${response.status}`;
  else if (response.bytesRead === 0)
    content = `${method} ${response.url} answered ${response.status} with no body`;
  else if (isText(media, response.body)) content = decodeText(response, media);
  else content = `[binary body: ${response.bytesRead} bytes of ${media.type || "unknown type"}, not shown]`;
  if (response.truncated) content += `\n\n[cut: only the first ${response.bytesRead} bytes were read]`;
  return {
    content,
    data: {
      status: response.status,
      finalUrl: response.url,
      headers: response.headers,
      contentType: media.type,
      bytesRead: response.bytesRead,
      truncated: response.truncated,
    },
    truncated: response.truncated,
    provenance: { source: response.url, trusted: false },
  };
}
