/**
 * @module `catalogBudget`: bounds the tokens of the resident catalogue. What does not fit is dropped, and
 * never silently: a `catalog.truncated` event names every dropped tool, the budget that bound, and whether
 * find_tools and execute_tool were in the model's hands — the difference between a deferral and an
 * amputation.
 */
import type { AnyTool } from "../../registry/registry.js";
import type { AnthropicOptions } from "../anthropic.js";
import type { OpenAIChatTool } from "../openai-chat.js";
import type { OpenAIResponsesTool } from "../openai-responses.js";
import {
  type CatalogFormats,
  type CatalogProvider,
  type DetailOptions,
  renderTools,
} from "../render-catalog.js";
import { OPENAI_FUNCTIONS_FRAME, openAIFunctionText } from "./openai-function-text.js";
import { countJsonTokens, type TokenCounter } from "./token-counter.js";

/**
 * Kept first, in this order, when present: the machinery that reaches what was dropped. find_tools and
 * execute_tool together make a dropped tool reachable, so they come before learn_tools.
 */
export const PINNED_TOOLS = ["find_tools", "execute_tool", "learn_tools", "read_tool_output"] as const;

export interface CatalogBudget {
  /** Most tokens the rendered entries may take together, counted as the model reads them (see countedAs). */
  maxTokens: number;
}

/**
 * What a budget counts for a provider. OpenAI's models read function tools as TypeScript declarations,
 * and OpenAI bills that text, not the JSON of the request; for the other providers the JSON is the best
 * public measure of what the model reads.
 */
export type CountedAs = "typescript" | "json";

export function countedAs(provider: CatalogProvider): CountedAs {
  return provider === "openai-chat" || provider === "openai-responses" ? "typescript" : "json";
}

/** The way asked for, or the provider's own; only OpenAI's shapes can be read as TypeScript here. */
function countingFor(provider: CatalogProvider, asked: CountedAs | undefined): CountedAs {
  const own = countedAs(provider);
  if (asked === "typescript" && own !== "typescript") {
    throw new RangeError(`${provider} entries are counted as JSON; only OpenAI's can be read as TypeScript`);
  }
  return asked ?? own;
}

export interface CatalogTruncatedEvent {
  type: "catalog.truncated";
  provider: CatalogProvider;
  budget: {
    name: "catalogBudget";
    maxTokens: number;
    usedTokens: number;
    encoding: string;
    countedAs: CountedAs;
  };
  /** Every tool left out, in catalogue order. */
  dropped: string[];
  kept: number;
  /** Whether find_tools is among the resident tools, so a dropped tool can still be found. */
  findToolsOffered: boolean;
  /** Whether execute_tool is too: with both, a dropped tool can be found and called — a deferral. */
  executeToolOffered: boolean;
}

export interface FitOptions<P extends CatalogProvider> {
  budget: CatalogBudget;
  counter: TokenCounter;
  /**
   * `json` counts OpenAI's shapes as the JSON of the request: for a server that speaks OpenAI's API to
   * another model (vLLM, Ollama), whose chat template may show that model the JSON itself.
   */
  countAs?: CountedAs;
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

/** Counted entries, by counter (two counters may share an encoding's name), tool and rendering. */
const counted = new WeakMap<TokenCounter, WeakMap<AnyTool, Map<string, number>>>();

/**
 * One entry's tokens for a provider: the tool rendered alone, read as `countAs` says (the provider's own
 * way unless told). Counted once per counter, tool, rendering and way.
 */
export function entryTokens<P extends CatalogProvider>(
  provider: P,
  tool: AnyTool,
  counter: TokenCounter,
  options?: CatalogFormats[P]["options"],
  countAs?: CountedAs,
): number {
  const as = countingFor(provider, countAs);
  let byTool = counted.get(counter);
  if (!byTool) {
    byTool = new WeakMap();
    counted.set(counter, byTool);
  }
  let byRendering = byTool.get(tool);
  if (!byRendering) {
    byRendering = new Map();
    byTool.set(tool, byRendering);
  }
  const key = JSON.stringify([provider, options ?? {}, as]);
  const known = byRendering.get(key);
  if (known !== undefined) return known;
  const tokens = countEntry(provider, renderTools(provider, [tool], options), counter, as);
  byRendering.set(key, tokens);
  return tokens;
}

/** Tokens of what a provider's model reads for a rendering of one tool. */
function countEntry(
  provider: CatalogProvider,
  rendered: unknown,
  counter: TokenCounter,
  as: CountedAs,
): number {
  const entry =
    provider === "gemini"
      ? (rendered as CatalogFormats["gemini"]["output"]).functionDeclarations[0]
      : (rendered as unknown[])[0];
  if (as === "json") return countJsonTokens(counter, entry);
  return counter.count(
    openAIFunctionText(
      provider === "openai-chat" ? (entry as OpenAIChatTool).function : (entry as OpenAIResponsesTool),
    ),
  );
}

/** What a provider's catalogue costs once, whatever it holds: OpenAI's namespace around its functions. */
function frameTokens(as: CountedAs, counter: TokenCounter): number {
  return as === "typescript" ? counter.count(OPENAI_FUNCTIONS_FRAME) : 0;
}

/**
 * Anthropic's cache breakpoint marks the last tool only, but a tool rendered alone is its own last: each
 * entry is counted without it, and the breakpoint once, as what it adds to the first tool.
 */
function perEntryOptions<P extends CatalogProvider>(
  provider: P,
  tools: readonly AnyTool[],
  counter: TokenCounter,
  render: CatalogFormats[P]["options"] | undefined,
): { entry: CatalogFormats[P]["options"] | undefined; once: number } {
  const first = tools[0];
  if (provider !== "anthropic" || !(render as AnthropicOptions | undefined)?.cacheLastTool || !first) {
    return { entry: render, once: 0 };
  }
  const { cacheLastTool: _breakpoint, ...entry } = render as AnthropicOptions & DetailOptions;
  const typed = entry as CatalogFormats[P]["options"];
  return {
    entry: typed,
    once:
      entryTokens(provider, first, counter, render, "json") -
      entryTokens(provider, first, counter, typed, "json"),
  };
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
  const as = countingFor(provider, options.countAs);
  const { entry, once } = perEntryOptions(provider, tools, counter, options.render);
  const kept = new Set<AnyTool>();
  // Paid once with the first tool kept, and not at all when none is.
  let usedTokens = once + frameTokens(as, counter);
  for (const tool of [...pinned, ...rest]) {
    const tokens = entryTokens(provider, tool, counter, entry, as);
    if (usedTokens + tokens > budget.maxTokens) continue;
    usedTokens += tokens;
    kept.add(tool);
  }
  if (kept.size === 0) usedTokens = 0;
  const resident = tools.filter((tool) => kept.has(tool));
  const output = renderTools(provider, resident, options.render);
  const dropped = tools.filter((tool) => !kept.has(tool)).map((tool) => tool.name);
  if (dropped.length === 0) return { output, tools: resident, usedTokens, truncated: undefined };
  const truncated: CatalogTruncatedEvent = {
    type: "catalog.truncated",
    provider,
    budget: {
      name: "catalogBudget",
      maxTokens: budget.maxTokens,
      usedTokens,
      encoding: counter.encoding,
      countedAs: as,
    },
    dropped,
    kept: resident.length,
    findToolsOffered: resident.some((tool) => tool.name === "find_tools"),
    executeToolOffered: resident.some((tool) => tool.name === "execute_tool"),
  };
  options.onTruncated?.(truncated);
  return { output, tools: resident, usedTokens, truncated };
}
