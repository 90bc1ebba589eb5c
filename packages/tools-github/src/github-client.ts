/**
 * @module One Octokit per bound toolkit, sending through toolreg's egress: each request gets the call's
 * fetch (its signal, its deadline, its caller's credential injected by egress, never by Octokit), and every
 * failure comes back as GitHub's meaning of it (github-failure.ts).
 */
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { throttling } from "@octokit/plugin-throttling";
import {
  type CollectedPages,
  collectPages,
  type EgressClient,
  egressFetch,
  type ToolContext,
} from "toolreg/toolkit";
import { githubFailure } from "./github-failure.js";

const GithubOctokit = Octokit.plugin(paginateRest, throttling);

/** A short wait is worth taking inside the call; a longer one is the model's to decide, told as retryAfterMs. */
const RETRY_WITHIN_CALL_S = 2;

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
  // biome-ignore lint/suspicious/noExplicitAny: as above.
  graphql<T = any>(query: string, variables: Record<string, unknown>, what: string): Promise<T>;
}

export interface GithubClientOptions {
  baseUrl: string;
  egress: EgressClient;
}

export function createGithubClient({
  baseUrl,
  egress,
}: GithubClientOptions): (context: ToolContext) => GithubCall {
  const octokit = new GithubOctokit({
    baseUrl,
    userAgent: "toolreg-tools-github",
    throttle: {
      onRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        retryCount === 0 && retryAfter <= RETRY_WITHIN_CALL_S,
      onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
        retryCount === 0 && retryAfter <= RETRY_WITHIN_CALL_S,
    },
  });
  return (context) => {
    const request = { fetch: egressFetch(egress, context) };
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
              for await (const page of octokit.paginate.iterator(route, {
                per_page: Math.min(100, maxItems),
                ...params,
                request,
              })) {
                yield {
                  items: page.data as never[],
                  hasMore: /rel="next"/.test(String(page.headers.link ?? "")),
                };
              }
            })(),
            { maxItems },
          ),
        ),
      graphql: (query, variables, what) =>
        guard(what, () => octokit.graphql(query, { ...variables, request })),
    };
  };
}
