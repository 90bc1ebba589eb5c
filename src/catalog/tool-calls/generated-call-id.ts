/** @module An id for a call the provider sent without a usable one (Gemini often, MCP always). */
import { createHash } from "node:crypto";
import type { CatalogProvider } from "../render-catalog.js";

/**
 * Made from the call's position and content: reading one message again gives the same ids, so the seam's
 * idempotency key survives a host's retry, while a different call at the same position in a later turn
 * gets a different id instead of colliding with the earlier one.
 */
export function generatedCallId(
  provider: CatalogProvider,
  index: number,
  name: unknown,
  args: unknown,
): string {
  let content = "";
  try {
    content = JSON.stringify([name, args]);
  } catch {
    // A value JSON cannot hold (a cycle, a bigint) leaves the position alone to tell calls apart.
  }
  const digest = createHash("sha256").update(content).digest("hex").slice(0, 12);
  return `${provider}-${index}-${digest}`;
}
