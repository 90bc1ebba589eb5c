/**
 * @module `catalogBudget`: bounds the tokens of the resident catalogue. What does not fit is dropped, and
 * never silently: a `catalog.truncated` event names every dropped tool, the budget that bound, and whether
 * find_tools was in the model's hands — the difference between a deferral and an amputation.
 */
import type { AnyTool } from "../../registry/registry.js";
import { type CatalogFormats, type CatalogProvider, renderTools } from "../render-catalog.js";
import { countJsonTokens, type TokenCounter } from "./token-counter.js";

/** Kept first, in this order, when present: the machinery that reaches what was dropped. */
export const PINNED_TOOLS = ["find_tools", "learn_tools", "execute_tool", "read_tool_output"] as const;

export interface CatalogBudget {
  /** Most tokens the rendered entries may take together, counted as compact JSON. */
  maxTokens: number;
}

export interface CatalogTruncatedEvent {
  type: "catalog.truncated";
  provider: CatalogProvider;
  budget: { name: "catalogBudget"; maxTokens: number; usedTokens: number; encoding: string };
  /** Every tool left out, in catalogue order. */
  dropped: string[];
  kept: number;
  /** Whether find_tools is among the resident tools, so a dropped tool can still be found and called. */
  findToolsOffered: boolean;
}

export interface FitOptions<P extends CatalogProvider> {
  budget: CatalogBudget;
  counter: TokenCounter;
  render?: CatalogFormats[P]["options"];
  /** Called when something was dropped; the host forwards it to its run's event stream. */
  onTruncated?: (event: CatalogTruncatedEvent) => void;
}

export interface FittedCatalog<P extends CatalogProvider> {
  output: CatalogFormats[P]["output"];
  /** The resident tools, in catalogue order. */
  tools: AnyTool[];
  usedTokens: number;
  truncated: CatalogTruncatedEvent | undefined;
}

/** Counted entries, by tool (tools are immutable) and then by provider, options and encoding. */
const counted = new WeakMap<AnyTool, Map<string, number>>();

/** One entry's tokens for a provider: the tool rendered alone. Counted once per tool and rendering. */
export function entryTokens<P extends CatalogProvider>(
  provider: P,
  tool: AnyTool,
  counter: TokenCounter,
  options?: CatalogFormats[P]["options"],
): number {
  let byRendering = counted.get(tool);
  if (!byRendering) {
    byRendering = new Map();
    counted.set(tool, byRendering);
  }
  const key = JSON.stringify([provider, counter.encoding, options ?? {}]);
  const known = byRendering.get(key);
  if (known !== undefined) return known;
  const rendered = renderTools(provider, [tool], options) as unknown;
  const entry =
    provider === "gemini"
      ? (rendered as CatalogFormats["gemini"]["output"]).functionDeclarations[0]
      : (rendered as unknown[])[0];
  const tokens = countJsonTokens(counter, entry);
  byRendering.set(key, tokens);
  return tokens;
}

/**
 * The tools that fit, pinned meta-tools first and then in catalogue order; a tool too large for what is
 * left is skipped and a smaller one after it may still fit. The rendering keeps catalogue order, so the
 * resident list is a stable prefix for prompt caching.
 */
export function fitCatalog<P extends CatalogProvider>(
  provider: P,
  tools: readonly AnyTool[],
  options: FitOptions<P>,
): FittedCatalog<P> {
  const { budget, counter } = options;
  if (!Number.isInteger(budget.maxTokens) || budget.maxTokens <= 0) {
    throw new RangeError("catalogBudget.maxTokens must be a positive whole number");
  }
  const pinned = PINNED_TOOLS.flatMap((name) => tools.filter((tool) => tool.name === name));
  const rest = tools.filter((tool) => !(PINNED_TOOLS as readonly string[]).includes(tool.name));
  const kept = new Set<AnyTool>();
  let usedTokens = 0;
  for (const tool of [...pinned, ...rest]) {
    const tokens = entryTokens(provider, tool, counter, options.render);
    if (usedTokens + tokens > budget.maxTokens) continue;
    usedTokens += tokens;
    kept.add(tool);
  }
  const resident = tools.filter((tool) => kept.has(tool));
  const output = renderTools(provider, resident, options.render);
  const dropped = tools.filter((tool) => !kept.has(tool)).map((tool) => tool.name);
  if (dropped.length === 0) return { output, tools: resident, usedTokens, truncated: undefined };
  const truncated: CatalogTruncatedEvent = {
    type: "catalog.truncated",
    provider,
    budget: { name: "catalogBudget", maxTokens: budget.maxTokens, usedTokens, encoding: counter.encoding },
    dropped,
    kept: resident.length,
    findToolsOffered: resident.some((tool) => tool.name === "find_tools"),
  };
  options.onTruncated?.(truncated);
  return { output, tools: resident, usedTokens, truncated };
}
