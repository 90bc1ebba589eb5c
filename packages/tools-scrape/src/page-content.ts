/**
 * @module How read pages are written for a model: each under a line naming its source (the URL that
 * answered), cut to a share of the output so a long page cannot crowd out the others.
 */
import type { ScrapedPage } from "./scrape-provider.js";

/** What one envelope's content may hold in all; the seam's output limit is set above it. */
export const CONTENT_CHARS = 200_000;

/** The page's text as markdown, its title as a heading, cut to `maxChars` with a note when cut. */
export function pageText(page: ScrapedPage, maxChars: number): { text: string; cut: boolean } {
  const body = page.title ? `# ${page.title}\n\n${page.markdown}` : page.markdown;
  const cut = body.length > maxChars || page.truncated;
  const kept = body.length > maxChars ? body.slice(0, maxChars) : body;
  const notes = [
    body.length > maxChars ? `cut at ${maxChars} of ${body.length} characters` : undefined,
    page.truncated ? `only the first ${page.bytes} bytes of the page were read` : undefined,
  ].filter(Boolean);
  return { text: notes.length > 0 ? `${kept}\n\n[${notes.join("; ")}]` : kept, cut };
}

/** One page of several, labelled with its number and source. */
export function labelledPage(index: number, total: number, page: ScrapedPage, maxChars: number): string {
  return `=== page ${index + 1} of ${total} · source: ${page.finalUrl} ===\n${pageText(page, maxChars).text}`;
}

/** A page's summary for `data`: where it came from, how big it was, never its text (that is the content). */
export function pageSummary(page: ScrapedPage) {
  return {
    url: page.url,
    finalUrl: page.finalUrl,
    title: page.title,
    chars: page.markdown.length,
    bytes: page.bytes,
    truncated: page.truncated,
    provenance: { source: page.finalUrl, trusted: false as const },
  };
}
