/** @module How a URL is named in a failure's message and details: without the query, which may authorize. */

/**
 * Origin and path, with `?…` where a query was: a signed URL's signature or an API key some providers
 * put in the query must not reach a message a model, a log or an audit trail reads. The fragment is
 * never sent, so it is dropped too.
 */
export function redactUrl(url: URL): string {
  const origin = url.origin === "null" ? `${url.protocol}//${url.host}` : url.origin;
  return `${origin}${url.pathname}${url.search ? "?…" : ""}`;
}
