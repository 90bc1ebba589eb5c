/** @module The words a human reads before deciding an approval. */
import { canonicalJson } from "../declaration/tool-hash.js";
import type { AnyTool } from "../registry/registry.js";

const MAX_ARGUMENTS = 2_000;

export function describeCall(tool: AnyTool, input: unknown): string {
  const argumentsText = canonicalJson(input) ?? "{}";
  const shown =
    argumentsText.length > MAX_ARGUMENTS
      ? `${argumentsText.slice(0, MAX_ARGUMENTS)}… (truncated)`
      : argumentsText;
  const summary = tool.description.split(/(?<=\.)\s/)[0];
  return `${tool.name} v${tool.version} (${tool.effect}): ${summary} Arguments: ${shown}`;
}
