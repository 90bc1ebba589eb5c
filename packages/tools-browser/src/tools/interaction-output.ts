/** @module What a click or typing answers: where the page is now, and what it downloaded. */
import { type DownloadOutcome, describeDownload } from "../snapshot-text.js";

export function interactionOutput(
  done: string,
  sessionId: string,
  after: { url: string; title: string; downloads: DownloadOutcome[] },
) {
  const downloads =
    after.downloads.length > 0 ? `\nDownloads:\n${after.downloads.map(describeDownload).join("\n")}` : "";
  return {
    content: `${done}. The page is now "${after.title}" at ${after.url}. Call browser_read for its text and new references.${downloads}`,
    data: { sessionId, ...after },
    provenance: { source: after.url, trusted: false as const },
  };
}
