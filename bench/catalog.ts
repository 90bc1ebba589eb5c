/**
 * @module The model-facing catalogue at 272, 1,000 and 10,000 synthetic tools: render time cold and cached
 * (OpenAI Chat), tokens per entry in full and compact form (o200k), and find_tools latency through the
 * seam beside the search index alone, measured in the same run; and tokens per entry of the shipped tools.
 * Tokens are counted as the model reads an entry (for OpenAI, the TypeScript declaration its API bills:
 * `tokens_per_entry_*`) and as the JSON the request carries (`json_tokens_per_entry_*`). The vendor
 * toolkits are reported alone too, as the resident tokens a deployment wiring one of them pays.
 */

import { githubToolkit } from "../packages/tools-github/src/index.js";
import { slackToolkit } from "../packages/tools-slack/src/index.js";
import {
  countJsonTokens,
  entryTokens,
  loadO200kCounter,
  type TokenCounter,
} from "../src/catalog/budget/index.js";
import { metaTools } from "../src/catalog/meta/index.js";
import { searchIndexFor } from "../src/catalog/meta/search-cache.js";
import { type CatalogProvider, renderCatalog, renderTools } from "../src/catalog/render-catalog.js";
import { defaultCatalogue } from "../src/check/default-catalogue.js";
import { type AnyTool, ToolRegistry } from "../src/registry/registry.js";
import { createExecutionContext } from "../src/seam/context.js";
import { Seam } from "../src/seam/seam.js";
import { createMemoryStores } from "../src/stores/memory/index.js";
import { percentile } from "./percentile.js";
import { syntheticTools } from "./synthetic-catalogue.js";

const SIZES = [272, 1_000, 10_000] as const;
const PROVIDER = "openai-chat" satisfies CatalogProvider;
const QUERIES = [
  "list customer records",
  "find support tickets that are open",
  "create an invoice",
  "delete a calendar event",
  "search shared documents by title",
  "export service metrics",
  "update an employee profile",
  "archive team channels",
  "get one stored file",
  "search stock items owned by a user",
];

interface SizeReport {
  render_cold_ms: number;
  render_cached_ms: number;
  cache_speedup: number;
  tokens_per_entry_full: number;
  tokens_per_entry_compact: number;
  json_tokens_per_entry_full: number;
  json_tokens_per_entry_compact: number;
  find_p50_ms: number;
  find_p99_ms: number;
  search_only_p99_ms: number;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

async function measureSize(size: number, counter: TokenCounter): Promise<SizeReport> {
  let seam: Seam | undefined;
  const registry = new ToolRegistry([...syntheticTools(size), ...metaTools({ seam: () => seam as Seam })]);
  const view = registry.view();
  seam = new Seam({ registry: view, stores: createMemoryStores() });

  const coldStarted = performance.now();
  renderCatalog(PROVIDER, view);
  const renderCold = performance.now() - coldStarted;
  const cachedRuns = 2_000;
  const cachedStarted = performance.now();
  for (let run = 0; run < cachedRuns; run++) renderCatalog(PROVIDER, view);
  const renderCached = (performance.now() - cachedStarted) / cachedRuns;

  const tokens = tokensPerEntry(
    view.list().filter((tool) => tool.category !== "meta"),
    counter,
  );

  const context = createExecutionContext({
    tenantId: "bench",
    principalId: "bench",
    runId: "bench",
    toolCallId: "find",
  });
  const times: number[] = [];
  const searchTimes: number[] = [];
  const index = searchIndexFor(view);
  for (let round = 0; round < 60; round++) {
    for (const query of QUERIES) {
      const started = performance.now();
      const envelope = await seam.call(context, "find_tools", { query, limit: 5 });
      const elapsed = performance.now() - started;
      if (!envelope.ok) throw new Error(`find_tools failed: ${envelope.error.message}`);
      const searchStarted = performance.now();
      index.search(query, { limit: 5 });
      const searchElapsed = performance.now() - searchStarted;
      // The first rounds build the index and warm the JIT.
      if (round >= 10) {
        times.push(elapsed);
        searchTimes.push(searchElapsed);
      }
    }
  }
  times.sort((a, b) => a - b);
  searchTimes.sort((a, b) => a - b);
  return {
    render_cold_ms: round(renderCold, 2),
    render_cached_ms: round(renderCached, 5),
    cache_speedup: Math.round(renderCold / renderCached),
    ...tokens,
    find_p50_ms: round(percentile(times, 0.5)),
    find_p99_ms: round(percentile(times, 0.99)),
    search_only_p99_ms: round(percentile(searchTimes, 0.99)),
  };
}

type EntryTokens = Pick<
  SizeReport,
  | "tokens_per_entry_full"
  | "tokens_per_entry_compact"
  | "json_tokens_per_entry_full"
  | "json_tokens_per_entry_compact"
>;

/** Mean tokens of an entry, full and compact, as the model reads it and as the request's JSON carries it. */
function tokensPerEntry(tools: readonly AnyTool[], counter: TokenCounter): EntryTokens {
  const average = (count: (tool: AnyTool) => number) =>
    round(tools.reduce((sum, tool) => sum + count(tool), 0) / tools.length, 1);
  const read = (detail: "full" | "compact") =>
    average((tool) => entryTokens(PROVIDER, tool, counter, { detail }));
  const json = (detail: "full" | "compact") =>
    average((tool) => countJsonTokens(counter, renderTools(PROVIDER, [tool], { detail })[0]));
  return {
    tokens_per_entry_full: read("full"),
    tokens_per_entry_compact: read("compact"),
    json_tokens_per_entry_full: json("full"),
    json_tokens_per_entry_compact: json("compact"),
  };
}

/**
 * What a vendor toolkit costs resident: the sum of its entries as the model reads them, full and compact
 * (the specification estimated ~1,540 tokens for GitHub's 44), and per entry.
 */
function residentTokens(tools: readonly AnyTool[], counter: TokenCounter) {
  const total = (detail: "full" | "compact") =>
    tools.reduce((sum, tool) => sum + entryTokens(PROVIDER, tool, counter, { detail }), 0);
  return {
    tools: tools.length,
    resident_tokens_full: total("full"),
    resident_tokens_compact: total("compact"),
    ...tokensPerEntry(tools, counter),
  };
}

/** The tools `toolreg serve` ships, beside the synthetic ones: real descriptions and schemas weigh more. */
function shippedTokens(counter: TokenCounter): EntryTokens & { tools: number } {
  const tools = defaultCatalogue().tools;
  return { tools: tools.length, ...tokensPerEntry(tools, counter) };
}

async function main(): Promise<void> {
  const asJson = process.argv.includes("--json");
  const counter = await loadO200kCounter();
  const report: Record<string, object> = {};
  for (const size of SIZES) report[String(size)] = await measureSize(size, counter);
  report.shipped = shippedTokens(counter);
  report.github = residentTokens(githubToolkit.declarations(), counter);
  report.slack = residentTokens(slackToolkit.declarations(), counter);
  if (asJson) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(
    `catalogue (${PROVIDER}, tokens ${counter.encoding}; find_tools through the seam vs the index alone)`,
  );
  console.table(report);
}

await main();
