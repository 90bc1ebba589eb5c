/**
 * @module Pagination followed to a stated bound. A vendor list can be unbounded; a model's context is not.
 * The bound is reported when it is what stopped the walk, so a model knows the list goes on.
 */

/** One page as a vendor sent it: its items, and whether it said another follows (a `next` link, a cursor). */
export interface Page<T> {
  items: readonly T[];
  hasMore: boolean;
}

export interface CollectedPages<T> {
  items: T[];
  /** False when the bound stopped the walk before the vendor's last page. */
  complete: boolean;
  pages: number;
}

export interface PageBound {
  maxItems: number;
  /** Requests made at most, whatever the items per page. */
  maxPages?: number;
}

export async function collectPages<T>(
  pages: AsyncIterable<Page<T>>,
  { maxItems, maxPages = Number.POSITIVE_INFINITY }: PageBound,
): Promise<CollectedPages<T>> {
  const items: T[] = [];
  let count = 0;
  for await (const page of pages) {
    count += 1;
    const room = maxItems - items.length;
    items.push(...page.items.slice(0, room));
    const more = page.hasMore || page.items.length > room;
    if (!more) return { items, complete: true, pages: count };
    // Leaving the loop ends the vendor's iterator: no request is made past the bound.
    if (items.length >= maxItems || count >= maxPages) return { items, complete: false, pages: count };
  }
  return { items, complete: true, pages: count };
}

/** How a tool states what it returns: the whole list, or the first part and that there is more. */
export function boundNote(collected: CollectedPages<unknown>, what: string): string {
  return collected.complete
    ? `${collected.items.length} ${what}`
    : `the first ${collected.items.length} ${what}; there are more: narrow the query or raise the limit`;
}
