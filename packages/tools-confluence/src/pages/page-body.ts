/** @module What the writing tools share: the body they send, from a model's markdown, and its input field. */
import { markdownField } from "../confluence-inputs.js";
import { markdownToStorage } from "../storage/markdown-to-storage.js";

/** A page body of this much markdown is a long document already; Confluence's own cap is 5 MB of storage. */
export const MAX_BODY_CHARS = 200_000;

export const pageMarkdownField = markdownField("page body", MAX_BODY_CHARS).describe(
  "the whole page body in markdown (GFM: tables, task lists, fenced code become Confluence's code macro; [text](confluence-page:SPACEKEY/Title) links to another page). Raw HTML is kept as text",
);

/** The storage body Confluence's v2 API takes for a page or a comment; its input field refused what cannot convert. */
export function storageBody(markdown: string): { representation: "storage"; value: string } {
  return { representation: "storage", value: markdownToStorage(markdown) };
}
