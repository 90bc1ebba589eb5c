/** @module `toolreg render PROVIDER`: the served catalogue in one provider's function-calling format. */
import { CATALOG_PROVIDERS, type CatalogProvider, renderTools } from "../../catalog/render-catalog.js";
import type { AnyTool } from "../../registry/registry.js";
import { type CliIo, UsageError } from "../cli-io.js";
import { formatJson } from "../format.js";

export function renderCommand(tools: readonly AnyTool[], provider: string, io: CliIo): number {
  if (!(CATALOG_PROVIDERS as readonly string[]).includes(provider)) {
    throw new UsageError(`provider must be one of ${CATALOG_PROVIDERS.join(", ")}`);
  }
  io.stdout(formatJson(renderTools(provider as CatalogProvider, tools)));
  return 0;
}
