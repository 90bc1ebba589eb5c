/**
 * @module A tool's docs page, generated from its declaration. Hand-written notes go below the generated
 * block and survive regeneration; the block itself is never edited by hand, so it cannot drift.
 */
import { toolDocsPage } from "../catalog/tool-docs-page.js";
import type { AnyTool } from "../registry/registry.js";

export const GENERATED_START =
  "<!-- toolreg:generated — run `toolreg docs` to refresh; write notes below the end marker -->";
export const GENERATED_END = "<!-- toolreg:end-generated -->";

/** The generated block for one tool: its docs page between the markers. */
export function renderToolDocs(tool: AnyTool): string {
  return [GENERATED_START, toolDocsPage(tool), "", GENERATED_END].join("\n");
}

/** The generated block of an existing page, or undefined when the page has none. */
export function generatedBlock(page: string): string | undefined {
  const start = page.indexOf(GENERATED_START);
  const end = page.indexOf(GENERATED_END);
  if (start === -1 || end === -1 || end < start) return undefined;
  return page.slice(start, end + GENERATED_END.length);
}

/** The page with its generated block replaced; notes outside the block are kept. */
export function refreshPage(tool: AnyTool, existing: string | undefined): string {
  const block = renderToolDocs(tool);
  if (existing === undefined || generatedBlock(existing) === undefined) return `${block}\n`;
  const start = existing.indexOf(GENERATED_START);
  const end = existing.indexOf(GENERATED_END) + GENERATED_END.length;
  return `${existing.slice(0, start)}${block}${existing.slice(end)}`;
}
