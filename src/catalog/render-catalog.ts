/** @module `renderCatalog`: a provider's rendering of what a caller may see, cached per registry revision. */
import type { AnyTool, RegistryView } from "../registry/registry.js";
import { type AnthropicOptions, type AnthropicTool, renderAnthropicTools } from "./anthropic.js";
import { compactTool } from "./budget/compact-tool.js";
import { type GeminiOptions, type GeminiTools, renderGeminiTools } from "./gemini.js";
import { type McpTool, renderMcpTools } from "./mcp.js";
import { type OpenAIChatOptions, type OpenAIChatTool, renderOpenAIChatTools } from "./openai-chat.js";
import {
  type OpenAIResponsesOptions,
  type OpenAIResponsesTool,
  renderOpenAIResponsesTools,
} from "./openai-responses.js";

/** What every provider's rendering takes. */
export interface DetailOptions {
  /** `compact` renders each tool's first sentence and a schema without prose or bounds (see compactTool). */
  detail?: "full" | "compact";
}

/** Each provider's options and output. */
export interface CatalogFormats {
  "openai-chat": { options: OpenAIChatOptions & DetailOptions; output: OpenAIChatTool[] };
  "openai-responses": { options: OpenAIResponsesOptions & DetailOptions; output: OpenAIResponsesTool[] };
  anthropic: { options: AnthropicOptions & DetailOptions; output: AnthropicTool[] };
  gemini: { options: GeminiOptions & DetailOptions; output: GeminiTools };
  mcp: { options: DetailOptions; output: McpTool[] };
}

export type CatalogProvider = keyof CatalogFormats;

export const CATALOG_PROVIDERS: readonly CatalogProvider[] = [
  "openai-chat",
  "openai-responses",
  "anthropic",
  "gemini",
  "mcp",
];

/**
 * Narrows the registry to what one caller may see, e.g.
 * `{ key: JSON.stringify([c.tenantId, c.principalId, c.scopes, c.mode]), select: () => seam.visibleTools(c) }`.
 * `key` names the selection: two filters with one key must select the same tools at a given revision, so
 * it holds everything the authorizer reads. A tenant alone is not enough: scopes and mode narrow what one
 * principal sees, and a shared key would hand one caller another's cached catalogue.
 */
export interface CatalogFilter {
  key: string;
  select(tools: readonly AnyTool[]): readonly AnyTool[];
}

/** Renders a list of tools for a provider, uncached. */
export function renderTools<P extends CatalogProvider>(
  provider: P,
  given: readonly AnyTool[],
  options?: CatalogFormats[P]["options"],
): CatalogFormats[P]["output"] {
  const tools = options?.detail === "compact" ? given.map(compactTool) : given;
  const renderers: { [K in CatalogProvider]: (options: CatalogFormats[K]["options"]) => unknown } = {
    "openai-chat": (o) => renderOpenAIChatTools(tools, o),
    "openai-responses": (o) => renderOpenAIResponsesTools(tools, o),
    anthropic: (o) => renderAnthropicTools(tools, o),
    gemini: (o) => renderGeminiTools(tools, o),
    mcp: () => renderMcpTools(tools),
  };
  const render = renderers[provider] as (
    options: CatalogFormats[P]["options"],
  ) => CatalogFormats[P]["output"];
  return render(options ?? {});
}

interface CacheEntry {
  revision: number;
  output: unknown;
}

const cache = new WeakMap<RegistryView, Map<string, CacheEntry>>();

/**
 * Renders what `filter` selects from `view` (everything without one) for a provider. The result is frozen
 * and cached on the view per provider, options and filter key: while the revision holds, a second call
 * returns the same object without rendering again. Keep the view: `registry.view()` makes a new one.
 */
export function renderCatalog<P extends CatalogProvider>(
  provider: P,
  view: RegistryView,
  filter?: CatalogFilter,
  options?: CatalogFormats[P]["options"],
): Readonly<CatalogFormats[P]["output"]> {
  let entries = cache.get(view);
  if (!entries) {
    entries = new Map();
    cache.set(view, entries);
  }
  const key = JSON.stringify([provider, filter?.key ?? null, options ?? {}]);
  const revision = view.revision;
  const hit = entries.get(key);
  if (hit && hit.revision === revision) return hit.output as CatalogFormats[P]["output"];

  const tools = view.list();
  const output = deepFreeze(renderTools(provider, filter ? filter.select(tools) : tools, options));
  entries.set(key, { revision, output });
  return output;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
