/**
 * @module GitHub's request pacing per caller: the Octokits one tenant's principal sends through, kept in a
 * bounded least-recently-used map.
 *
 * Why per caller: egress injects each call's credential (resolved from its tenant and principal), so one
 * process sends for many GitHub users. GitHub's secondary rate limits count per user or token, and
 * @octokit/plugin-throttling paces writes (1 s apart), notifying writes (3 s) and searches (2 s) per
 * `throttle.id` in Bottleneck groups it shares across the process; with one id for everyone, one tenant's
 * burst of writes would delay every other tenant's. Each caller's Octokit carries an id of its own instead,
 * so callers are paced apart and each as GitHub counts them. Two principals that resolve to the same token
 * are still paced apart (the client never sees the secret); GitHub's answer to that is a secondary rate
 * limit, which the plugin's handlers below meet.
 *
 * The pacing itself lives in the plugin's groups under that id, dropped after `timeout` idle, so an Octokit
 * evicted here and built again for the same caller keeps the caller's pace.
 */
import { Octokit } from "@octokit/core";
import { paginateRest } from "@octokit/plugin-paginate-rest";
import { throttling } from "@octokit/plugin-throttling";
import Bottleneck from "bottleneck";

const GithubOctokit = Octokit.plugin(paginateRest, throttling);
export type GithubOctokit = InstanceType<typeof GithubOctokit>;

/** A short wait is worth taking inside the call; a longer one is the model's to decide, told as retryAfterMs. */
const RETRY_WITHIN_CALL_S = 2;
const retryWithinCall = (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
  retryCount === 0 && retryAfter <= RETRY_WITHIN_CALL_S;

/**
 * The plugin paces every request to `/graphql` as a write (it cannot tell a query from a mutation, and its
 * maintainers declined an option for it: octokit/plugin-throttling.js#380). GitHub counts a query toward
 * its secondary limits as it counts a GET, a mutation as a write (docs.github.com/en/rest/using-the-rest-api/
 * rate-limits-for-the-rest-api#calculating-points-for-the-secondary-rate-limit), so the Octokit that sends
 * queries gets this group, which paces nothing, as the plugin's typed `write` option.
 */
const UNPACED = new Bottleneck.Group({});

/** Callers kept at once; past this the least recently used is dropped (and rebuilt if it calls again). */
export const MAX_CALLERS = 256;

export interface Caller {
  readonly tenantId: string;
  readonly principalId: string;
}

/** One caller's GitHub: the same throttling id on both, so they share the caller's concurrency bound. */
export interface CallerOctokit {
  /** REST requests and GraphQL mutations: writes paced as the plugin paces them. */
  octokit: GithubOctokit;
  /** GraphQL queries: reads, not paced as writes. */
  queries: GithubOctokit;
}

export interface CallerOctokits {
  get(caller: Caller): CallerOctokit;
  /** How many callers are kept now. */
  readonly size: number;
}

export interface CallerOctokitsOptions {
  baseUrl: string;
  maxCallers?: number | undefined;
}

export function callerOctokits({ baseUrl, maxCallers = MAX_CALLERS }: CallerOctokitsOptions): CallerOctokits {
  const kept = new Map<string, CallerOctokit>();
  const build = (id: string): CallerOctokit => {
    const options = {
      baseUrl,
      userAgent: "toolreg-tools-github",
      throttle: { id, onRateLimit: retryWithinCall, onSecondaryRateLimit: retryWithinCall },
    };
    return {
      octokit: new GithubOctokit(options),
      queries: new GithubOctokit({ ...options, throttle: { ...options.throttle, write: UNPACED } }),
    };
  };
  return {
    get({ tenantId, principalId }) {
      // The API root too: the plugin's groups are shared by every Octokit in the process, GitHub Enterprise's too.
      const id = JSON.stringify([baseUrl, tenantId, principalId]);
      const found = kept.get(id);
      if (found) {
        kept.delete(id);
        kept.set(id, found);
        return found;
      }
      const made = build(id);
      kept.set(id, made);
      if (kept.size > maxCallers) kept.delete(kept.keys().next().value as string);
      return made;
    },
    get size() {
      return kept.size;
    },
  };
}

/**
 * Whether a GraphQL document only reads: it holds no `mutation` (GitHub has no subscriptions). Erring
 * toward a write is safe, so the word anywhere (a comment, a string) counts as one.
 */
export function graphqlReadsOnly(document: string): boolean {
  return !/\bmutation\b/.test(document);
}
