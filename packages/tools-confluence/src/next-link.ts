/**
 * @module Where the next page of a Confluence list is. v2 lists give it as `_links.next`, a path from the
 * site root (`/wiki/api/v2/spaces?cursor=…`), and in the Link header (`<…>; rel="next"`); v1 search gives
 * `_links.next` from the context (`/rest/api/search?…&cursor=…`) beside `_links.context`, `/wiki`
 * (developer.atlassian.com/cloud/confluence/rest/v2/intro/#using and …/rest/v1/api-group-search). Only
 * a path under /wiki is followed: a vendor's link never takes a request off the API root.
 */
import { ToolFailure } from "toolreg/toolkit";

const WIKI_PATH = /^\/wiki\/[A-Za-z0-9\-._~!$&'()*+,;=:@/?%]*$/;

export function nextLinkOf(
  links: { next?: string | undefined; context?: string | undefined } | undefined,
  linkHeader: string | undefined,
): string | undefined {
  const next = links?.next ?? nextInLinkHeader(linkHeader);
  if (next === undefined || next === "") return undefined;
  const path = next.startsWith("/wiki/") ? next : `${links?.context ?? "/wiki"}${next}`;
  if (!WIKI_PATH.test(path) || (path.split("?")[0] ?? "").includes("//")) throw offRoot();
  // Resolved as the request will be (`%2e%2e` and a trailing `..` are dot segments too), then checked again.
  const resolved = new URL(path, "http://x");
  if (!resolved.pathname.startsWith("/wiki/")) throw offRoot();
  return `${resolved.pathname}${resolved.search}`;
}

function offRoot(): ToolFailure {
  return new ToolFailure(
    "upstream_error",
    "Confluence gave a next-page link that is not a path under /wiki; the list was not followed further",
    { retryable: false },
  );
}

function nextInLinkHeader(header: string | undefined): string | undefined {
  for (const part of header?.split(",") ?? []) {
    const match = /^\s*<([^>]*)>\s*;\s*rel="?next"?\s*$/i.exec(part);
    if (match) return match[1];
  }
  return undefined;
}
