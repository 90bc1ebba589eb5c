/**
 * @module What every list tool of the repository and Actions areas returns: the items, and whether the
 * bound (the model's limit, capped by the deployment's maxItems) stopped the list before its end.
 */
import { boundNote, type CollectedPages } from "toolreg/toolkit";

/**
 * A list as a tool's output; `what` names the items ("branches") in the note a model reads. Names,
 * messages and titles in a list are written by whoever pushed them: the output is untrusted, from `source`.
 */
export function listOutput<T, K extends string>(
  key: K,
  collected: CollectedPages<unknown>,
  items: T[],
  what: string,
  source: string,
) {
  const truncated = !collected.complete;
  const data = { [key]: items, truncated, note: boundNote(collected, what) } as Record<K, T[]> & {
    truncated: boolean;
    note: string;
  };
  return {
    content: JSON.stringify(data),
    data,
    truncated,
    provenance: { source, trusted: false },
  };
}

/** A page of the repository on github.com, for provenance where GitHub's payload names none. */
export function repositoryPage(owner: string, repo: string, page = ""): string {
  return `https://github.com/${owner}/${repo}${page}`;
}
