/** @module The text a snapshot is rendered as, and a download's line in it. */
import type { Artifact } from "toolreg/toolkit";
import type { RefusedRequest } from "./egress-proxy.js";
import type { PickedPage } from "./page-snapshot.js";

/** Refusals shown in one snapshot (and in its data); the rest are counted. */
export const SHOWN_REFUSALS = 20;
const REFUSAL_URL_CHARS = 200;

/** The refusals a snapshot shows: the first few, each URL cut, so a page cannot crowd out its own text. */
export function shownRefusals(refused: readonly RefusedRequest[]): RefusedRequest[] {
  return refused.slice(0, SHOWN_REFUSALS).map((refusal) => ({
    url: refusal.url.length > REFUSAL_URL_CHARS ? `${refusal.url.slice(0, REFUSAL_URL_CHARS)}…` : refusal.url,
    rule: refusal.rule.slice(0, 40),
    message: refusal.message.slice(0, 300),
  }));
}

/** A file the page downloaded, kept as an artifact, or why it was not. */
export type DownloadOutcome = { artifact: Artifact } | { name: string; refused: string };

/** The snapshot as the model reads it: where, downloads, the text, the elements, then what was blocked. */
export function renderSnapshot(
  id: string,
  picked: PickedPage,
  elements: string[],
  refused: RefusedRequest[],
  downloads: DownloadOutcome[],
): string {
  const parts = [`# ${picked.title || "(untitled)"}`, `url: ${picked.url}`, `session: ${id}`];
  if (downloads.length > 0) parts.push("## Downloads", downloads.map(describeDownload).join("\n"));
  parts.push("## Text", picked.text || "(no text)");
  if (picked.textTruncated) parts.push("(the text was cut here)");
  parts.push(
    "## Elements (pass a reference to browser_click or browser_type; they last until the next read, click, typing or navigation)",
    elements.join("\n") || "(none)",
  );
  if (picked.elementsTruncated) parts.push("(more elements were left out)");
  // After the text and elements, so a page that makes many refused requests cannot push them out.
  if (refused.length > 0) {
    const shown = shownRefusals(refused);
    parts.push(
      `## Blocked by the egress policy (${refused.length})`,
      shown.map((refusal) => `- ${refusal.url} (${refusal.rule}): ${refusal.message}`).join("\n") +
        (refused.length > shown.length ? `\n(and ${refused.length - shown.length} more)` : ""),
    );
  }
  return parts.join("\n\n");
}

/** One download as a line. */
export function describeDownload(outcome: DownloadOutcome): string {
  return "artifact" in outcome
    ? `- ${outcome.artifact.name} (${outcome.artifact.size} bytes): ${outcome.artifact.uri}`
    : `- ${outcome.name} was not kept: ${outcome.refused}`;
}
