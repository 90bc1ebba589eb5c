/**
 * @module How a GitHub list or search tool answers: one line per item for the model to read, the items as
 * data, and what the bound left out. Titles and names are written by users, so an answer carrying them is
 * untrusted. And the bound itself: what the model asked for, never past the deployment's maxItems.
 */
import { boundNote, type CollectedPages } from "toolreg/toolkit";
import type { GithubEnv } from "./github-env.js";

/** The most items to ask for: the model's limit, never past the deployment's maxItems. */
export function itemsWanted(limit: number | undefined, env: Pick<GithubEnv, "maxItems">): number {
  return Math.min(limit ?? env.maxItems, env.maxItems);
}

export interface ListAnswer<Item> {
  /** What the items are, plural: "open issues of octocat/hello-world". */
  what: string;
  items: Item[];
  collected: CollectedPages<unknown>;
  line(item: Item): string;
  /** Where the user-written text came from; none when nothing user-written is returned. */
  source: string | undefined;
  /** Said after the count: pull requests left out, a search that timed out. */
  notes?: (string | undefined)[];
  /** More data beside the items (a search's total). */
  extra?: Record<string, unknown>;
}

export function listAnswer<Item>({
  what,
  items,
  collected,
  line,
  source,
  notes = [],
  extra = {},
}: ListAnswer<Item>) {
  const head = [boundNote({ ...collected, items }, what), ...notes].filter(Boolean).join("; ");
  return {
    content: [`${head}${items.length > 0 ? ":" : "."}`, ...items.map(line)].join("\n"),
    data: { items, complete: collected.complete, ...extra },
    truncated: !collected.complete,
    ...(source === undefined || items.length === 0 ? {} : { provenance: { source, trusted: false } }),
  };
}
