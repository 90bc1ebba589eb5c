/**
 * @module `toolreg render PROVIDER`: the served catalogue in one provider's function-calling format,
 * full or compact, and within a token budget when given one (what was dropped is reported on stderr).
 */
import { fitCatalog } from "../../catalog/budget/fit-catalog.js";
import { loadO200kCounter } from "../../catalog/budget/token-counter.js";
import { CATALOG_PROVIDERS, type CatalogProvider, renderTools } from "../../catalog/render-catalog.js";
import type { AnyTool } from "../../registry/registry.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { formatJson } from "../format.js";

export interface RenderCommandOptions {
  compact?: boolean;
  budget?: string;
}

export async function renderCommand(
  tools: readonly AnyTool[],
  provider: string,
  options: RenderCommandOptions,
  io: CliIo,
): Promise<number> {
  if (!(CATALOG_PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(`provider must be one of ${CATALOG_PROVIDERS.join(", ")}`);
  }
  const render = { detail: options.compact ? ("compact" as const) : ("full" as const) };
  if (options.budget === undefined) {
    io.stdout(formatJson(renderTools(provider as CatalogProvider, tools, render)));
    return 0;
  }
  const maxTokens = Number(options.budget);
  if (!Number.isInteger(maxTokens) || maxTokens <= 0) {
    throw new UsageError("--budget must be a positive whole number of tokens");
  }
  const fitted = fitCatalog(provider as CatalogProvider, tools, {
    budget: { maxTokens },
    counter: await loadO200kCounter(),
    render,
  });
  io.stdout(formatJson(fitted.output));
  io.stderr(`${fitted.tools.length} of ${tools.length} tools, ${fitted.usedTokens} of ${maxTokens} tokens\n`);
  if (fitted.truncated) io.stderr(`${JSON.stringify(fitted.truncated)}\n`);
  return 0;
}
