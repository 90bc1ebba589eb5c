/**
 * @module How a list or search tool answers: one line per item for the model to read, the items as data,
 * and what the bound left out. Titles and names are written by users, so the answer is untrusted.
 */
import { boundNote, type CollectedPages } from "toolreg/toolkit";

export interface ListAnswer<Item> {
  /** What the items are, plural: "pull requests", "releases". */
  what: string;
  items: Item[];
  collected: CollectedPages<unknown>;
  line(item: Item): string;
  /** The page on GitHub these items were listed from; none when nothing user-written is returned. */
  source: string | undefined;
  /** Said after the count: a search's total, an incomplete search. */
  note?: string | undefined;
}

export function listOutput<Item>({ what, items, collected, line, source, note }: ListAnswer<Item>) {
  const head = [boundNote(collected, what), note].filter(Boolean).join("; ");
  return {
    content: [`${head}${items.length > 0 ? ":" : "."}`, ...items.map(line)].join("\n"),
    data: { items, complete: collected.complete },
    truncated: !collected.complete,
    ...(source === undefined ? {} : { provenance: { source, trusted: false } }),
  };
}
