/**
 * @module How a link to another Confluence page is written in markdown, both ways: storage's `ac:link` to
 * `ri:page` has no URL, only a title and maybe a space key, so it reads as
 * `confluence-page:SPACEKEY/Title%20encoded` (or `confluence-page:Title` within the same space).
 */
export const PAGE_LINK_SCHEME = "confluence-page:";

export interface PageLink {
  title: string;
  spaceKey?: string;
}

/** A markdown link destination read back as a page link; undefined when it is an ordinary URL. */
export function readPageLink(destination: string): PageLink | undefined {
  if (!destination.startsWith(PAGE_LINK_SCHEME)) return undefined;
  const rest = destination.slice(PAGE_LINK_SCHEME.length);
  const slash = rest.indexOf("/");
  const [spaceKey, encoded] =
    slash > 0 && /^~?[A-Za-z0-9]+$/.test(rest.slice(0, slash))
      ? [rest.slice(0, slash), rest.slice(slash + 1)]
      : [undefined, rest];
  let title: string;
  try {
    title = decodeURIComponent(encoded);
  } catch {
    return undefined;
  }
  if (title === "") return undefined;
  return spaceKey === undefined ? { title } : { title, spaceKey };
}
