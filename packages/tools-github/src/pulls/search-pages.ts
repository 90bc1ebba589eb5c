/**
 * @module GitHub's search endpoints walked page by page to a bound. Not through Octokit's paginate: it
 * takes the first key left after `total_count` and `incomplete_results` as the list, and GitHub now sends
 * `search_type` before `items`, so paginate throws on every search (Cannot create property
 * 'incomplete_results' on string 'lexical'). Pages are asked for by number and end when GitHub's `Link`
 * header has no `next`.
 */
import { type CollectedPages, collectPages } from "toolreg/toolkit";
import type { GithubCall } from "../github-client.js";

export interface SearchPages<T> extends CollectedPages<T> {
  /** How many GitHub found, of which at most 1,000 can be read. */
  totalCount: number;
  /** GitHub's search timed out before looking everywhere: a search again may find more. */
  incompleteResults: boolean;
}

export async function searchPages<T>(
  github: GithubCall,
  route: string,
  params: Record<string, unknown>,
  what: string,
  maxItems: number,
): Promise<SearchPages<T>> {
  const found = { totalCount: 0, incompleteResults: false };
  const perPage = Math.min(100, maxItems);
  const pages = async function* () {
    for (let page = 1; ; page += 1) {
      const { data, headers } = await github.request<{
        total_count: number;
        incomplete_results: boolean;
        items: T[];
      }>(route, { ...params, per_page: perPage, page }, what);
      found.totalCount = data.total_count;
      found.incompleteResults ||= data.incomplete_results;
      const hasMore = /rel="next"/.test(String(headers.link ?? ""));
      yield { items: data.items, hasMore };
      if (!hasMore) return;
    }
  };
  const collected = await collectPages(pages(), { maxItems });
  return { ...collected, ...found };
}
