/**
 * @module Renders the shipped catalogue in every provider format as one JSON document: the golden tests
 * compare it with committed files, and run it in a second process to prove the bytes do not vary.
 */

import { CATALOG_PROVIDERS, renderTools } from "../../src/catalog/render-catalog.js";
import { defaultCatalogue } from "../../src/check/default-catalogue.js";

/** One golden file per entry: name → rendered JSON text. */
export function renderShippedGoldens(): Record<string, string> {
  const tools = defaultCatalogue().tools;
  const goldens: Record<string, string> = {};
  for (const provider of CATALOG_PROVIDERS) goldens[provider] = toText(renderTools(provider, tools));
  goldens["gemini-openapi"] = toText(renderTools("gemini", tools, { form: "openapi" }));
  goldens["anthropic-cached"] = toText(renderTools("anthropic", tools, { cacheLastTool: true }));
  return goldens;
}

function toText(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

// Run directly (`tsx render-shipped.ts`): print every golden, for the second-process test.
if (process.argv[1]?.endsWith("render-shipped.ts")) {
  process.stdout.write(JSON.stringify(renderShippedGoldens()));
}
