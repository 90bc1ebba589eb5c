/**
 * @module Linear's Relay connections (`first`/`after`, `pageInfo { hasNextPage endCursor }`) followed to a
 * stated bound. Pages are asked no larger than what is still wanted: Linear's complexity multiplies a
 * connection's fields by `first` (50 when unset), so a small `first` keeps each query cheap.
 */
import { collectPages } from "toolreg/toolkit";
import { z } from "zod";

/** Linear's default and our largest page. */
const PAGE_SIZE = 50;
/** Requests one list makes at most, whatever the items per page, unless a tool sets fewer. */
const MAX_PAGES = 10;

const PageInfo = z.object({ hasNextPage: z.boolean(), endCursor: z.string().nullable() });

export function connectionOf<T>(node: z.ZodType<T>) {
  return z.object({ nodes: z.array(node), pageInfo: PageInfo });
}

interface Connection<T> {
  nodes: T[];
  pageInfo: z.output<typeof PageInfo>;
}

export interface ListResult<T> {
  items: T[];
  /** Which bound stopped the walk before Linear's last page; undefined when the list is whole. */
  stoppedBy: "limit" | "pages" | undefined;
  /** The request bound that applied. */
  maxPages: number;
}

/** Asks `page(first, after)` until Linear's last page, `maxItems` items, or `maxPages` requests. */
export async function walkConnection<T>(
  page: (first: number, after: string | undefined) => Promise<Connection<T>>,
  maxItems: number,
  maxPages = MAX_PAGES,
): Promise<ListResult<T>> {
  let wanted = maxItems;
  const collected = await collectPages(
    (async function* () {
      let after: string | undefined;
      for (;;) {
        const { nodes, pageInfo } = await page(Math.min(PAGE_SIZE, wanted), after);
        wanted -= nodes.length;
        // A page that says more follows but gives no cursor cannot be followed: the list ends there.
        const next = pageInfo.hasNextPage ? pageInfo.endCursor : null;
        yield { items: nodes, hasMore: next !== null };
        if (next === null || wanted <= 0) return;
        after = next;
      }
    })(),
    { maxItems, maxPages },
  );
  if (collected.complete) return { items: collected.items, stoppedBy: undefined, maxPages };
  return {
    items: collected.items,
    stoppedBy: collected.items.length >= maxItems ? "limit" : "pages",
    maxPages,
  };
}

/** How a list tool states what it returns: the whole list, or the first part and which bound stopped it. */
export function listNote(result: ListResult<unknown>, what: string, limit: number): string {
  const count = `${result.items.length} ${what}`;
  switch (result.stoppedBy) {
    case undefined:
      return count;
    case "limit":
      return `the first ${count}; there are more: the limit of ${limit} stopped the list, narrow the query or raise the limit`;
    case "pages":
      return `the first ${count}; there are more: the bound of ${result.maxPages} requests per call stopped the list, narrow the query`;
  }
}
