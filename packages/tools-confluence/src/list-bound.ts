/** @module How many items a list or search returns, and how many requests it may make for them. */
import type { PageBound } from "toolreg/toolkit";

/** Requests one list call makes at most, whatever the page size Confluence keeps to. */
export const MAX_LIST_REQUESTS = 5;

export function listBound(limit: number | undefined, maxItems: number): PageBound {
  return { maxItems: Math.min(limit ?? maxItems, maxItems), maxPages: MAX_LIST_REQUESTS };
}
