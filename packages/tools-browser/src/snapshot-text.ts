/** @module The text a snapshot is rendered as, and a download's line in it. */
import type { Artifact } from "toolreg/toolkit";
import type { RefusedRequest } from "./egress-proxy.js";
import type { PickedPage } from "./page-snapshot.js";

/** A file the page downloaded, kept as an artifact, or why it was not. */
export type DownloadOutcome = { artifact: Artifact } | { name: string; refused: string };

/** The snapshot as the model reads it: where, what was blocked and downloaded, the text, the elements. */
export function renderSnapshot(
  id: string,
  picked: PickedPage,
  elements: string[],
  refused: RefusedRequest[],
  downloads: DownloadOutcome[],
): string {
  const parts = [`# ${picked.title || "(untitled)"}`, `url: ${picked.url}`, `session: ${id}`];
  if (refused.length > 0) {
    parts.push(
      `## Blocked by the egress policy (${refused.length})`,
      refused.map((refusal) => `- ${refusal.url} (${refusal.rule}): ${refusal.message}`).join("\n"),
    );
  }
  if (downloads.length > 0) parts.push("## Downloads", downloads.map(describeDownload).join("\n"));
  parts.push("## Text", picked.text || "(no text)");
  if (picked.textTruncated) parts.push("(the text was cut here)");
  parts.push(
    "## Elements (pass a reference to browser_click or browser_type; they last until the next read, click, typing or navigation)",
    elements.join("\n") || "(none)",
  );
  if (picked.elementsTruncated) parts.push("(more elements were left out)");
  return parts.join("\n\n");
}

/** One download as a line. */
export function describeDownload(outcome: DownloadOutcome): string {
  return "artifact" in outcome
    ? `- ${outcome.artifact.name} (${outcome.artifact.size} bytes): ${outcome.artifact.uri}`
    : `- ${outcome.name} was not kept: ${outcome.refused}`;
}
