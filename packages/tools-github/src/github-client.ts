/**
 * @module GitHub for each call, sending through toolreg's egress: each request gets the call's fetch (its
 * signal, its deadline, its caller's credential injected by egress, never by Octokit) and goes out through
 * its caller's Octokit, paced per caller (caller-octokits.ts); every failure comes back as GitHub's meaning
 * of it (github-failure.ts).
 */
import {
  type CollectedPages,
  collectPages,
  type EgressClient,
  egressFetch,
  type ToolContext,
} from "toolreg/toolkit";
import { callerOctokits, graphqlReadsOnly } from "./caller-octokits.js";
import { githubFailure } from "./github-failure.js";

export interface GithubResponse<T> {
  status: number;
  data: T;
  headers: Record<string, string | number | undefined>;
}

/** GitHub as one call sees it. `what` names the thing asked for, so a failure says what it was about. */
export interface GithubCall {
  // biome-ignore lint/suspicious/noExplicitAny: GitHub's payloads are typed where they are read.
  request<T = any>(route: string, params: Record<string, unknown>, what: string): Promise<GithubResponse<T>>;
  /** A list endpoint followed page by page up to `maxItems`. */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  list<T = any>(
    route: string,
    params: Record<string, unknown>,
    what: string,
    maxItems: number,
  ): Promise<CollectedPages<T>>;
  /**
   * A search endpoint (`GET /search/…`) followed page by page up to `maxItems`, with GitHub's total and
   * whether a page timed out (`incomplete_results`). Read as `{items}` rather than through Octokit's
   * pagination, which takes the first array-valued key after `total_count` and so depends on key order.
   */
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  search<T = any>(
    route: string,
    params: Record<string, unknown>,
    what: string,
    maxItems: number,
  ): Promise<SearchPages<T>>;
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  graphql<T = any>(query: string, variables: Record<string, unknown>, what: string): Promise<T>;
}

export interface SearchPages<T> extends CollectedPages<T> {
  /** How many results GitHub counted (it serves at most 1,000 of them). */
  totalCount: number;
  /** GitHub stopped a page's query at its time limit: matches may be missing. */
  incompleteResults: boolean;
}

export interface GithubClientOptions {
  baseUrl: string;
  egress: EgressClient;
  /** Callers whose Octokits are kept at once (caller-octokits.ts's MAX_CALLERS by default). */
  maxCallers?: number;
}

export function createGithubClient({
  baseUrl,
  egress,
  maxCallers,
}: GithubClientOptions): (context: ToolContext) => GithubCall {
  const octokits = callerOctokits({ baseUrl, maxCallers });
  return (context) => {
    const { octokit, queries } = octokits.get(context);
    const request = { fetch: egressFetch(egress, context) };
    // Octokit's page iterator sends each page with only method, url and headers: a per-call `request`
    // option would be dropped and the pages fetched around egress. A request function that carries it does not.
    const requestThroughEgress = octokit.request.defaults({ request });
    const guard = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
      try {
        return await run();
      } catch (error) {
        throw githubFailure(error, what);
      }
    };
    return {
      request: (route, params, what) =>
        guard(what, async () => {
          const response = await octokit.request(route, { ...params, request });
          return { status: response.status, data: response.data, headers: response.headers };
        }),
      list: (route, params, what, maxItems) =>
        guard(what, () =>
          collectPages(
            (async function* () {
              const [method, url] = route.split(" ");
              const pages = octokit.paginate.iterator(requestThroughEgress, {
                method,
                url,
                per_page: Math.min(100, maxItems),
                ...params,
              } as never) as AsyncIterable<GithubResponse<unknown[]>>;
              for await (const page of pages) {
                yield {
                  items: page.data as never[],
                  hasMore: /rel="next"/.test(String(page.headers.link ?? "")),
                };
              }
            })(),
            { maxItems },
          ),
        ),
      search: (route, params, what, maxItems) =>
        guard(what, async () => {
          let totalCount = 0;
          let incompleteResults = false;
          const collected = await collectPages(
            (async function* () {
              for (let page = 1; ; page += 1) {
                const { data, headers } = await requestThroughEgress(route, {
                  ...params,
                  per_page: Math.min(100, maxItems),
                  page,
                });
                totalCount = data.total_count;
                incompleteResults ||= data.incomplete_results === true;
                const hasMore = /rel="next"/.test(String(headers.link ?? ""));
                yield { items: data.items as never[], hasMore };
                if (!hasMore) return;
              }
            })(),
            { maxItems },
          );
          return { ...collected, totalCount, incompleteResults };
        }),
      graphql: (query, variables, what) =>
        guard(what, () =>
          (graphqlReadsOnly(query) ? queries : octokit).graphql(query, { ...variables, request }),
        ),
    };
  };
}
