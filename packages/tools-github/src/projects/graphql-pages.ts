/**
 * @module A GraphQL connection followed by its `after` cursors up to a bound. Each page asks only for what
 * is still wanted (GitHub allows 1–100 a page), so a limit of 120 costs a page of 100 and one of 20, and a
 * limit below the total costs one page and reports that more exist.
 */
import { type CollectedPages, collectPages } from "toolreg/toolkit";

/** GitHub's largest page (`first` may be 1–100). */
export const GRAPHQL_PAGE = 100;

export interface Connection<T> {
  nodes: (T | null)[] | null;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

export function collectConnection<T>(
  fetchPage: (first: number, after: string | null) => Promise<Connection<T>>,
  maxItems: number,
): Promise<CollectedPages<T>> {
  return collectPages(
    (async function* () {
      let after: string | null = null;
      let wanted = maxItems;
      for (;;) {
        const page = await fetchPage(Math.min(GRAPHQL_PAGE, wanted), after);
        // GitHub's `nodes` may hold nulls (an item it cannot show); they are not items.
        const items = (page.nodes ?? []).filter((node): node is T => node !== null);
        wanted -= items.length;
        yield { items, hasMore: page.pageInfo.hasNextPage };
        if (!page.pageInfo.hasNextPage || page.pageInfo.endCursor === null) return;
        after = page.pageInfo.endCursor;
      }
    })(),
    { maxItems },
  );
}
