/**
 * @module Search quality and latency on the public bench-data sets, beside their BM25 baseline: words
 * alone (what find_tools ranks by without an embedding provider), and, when the in-process sentence
 * encoder is installed (or `--hybrid=openai` names an endpoint), the hybrid search too; `--words` skips it.
 */

import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type EmbeddingProvider, embeddingText } from "../src/catalog/search/embedding-provider.js";
import { HybridToolSearch, type HybridWeights } from "../src/catalog/search/hybrid-tool-search.js";
import {
  type SearchDocument,
  ToolSearchIndex,
  type ToolSearchIndexOptions,
} from "../src/catalog/search/tool-search-index.js";
import { EMBEDDING_MODELS, type EmbeddingModel, loadCliEmbeddings } from "../src/cli/cli-embeddings.js";
import { percentile } from "./percentile.js";

interface BenchCase {
  query: string;
  expected: string[];
}

interface SetReport {
  recall_at_1: number;
  recall_at_5: number;
  mrr: number;
  baseline_recall_at_5: number;
  p50_ms: number;
  p99_ms: number;
}

const SETS = ["metatool", "bfcl"] as const;
const repositoryRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");

function benchDataDirectory(): string {
  const directory = process.env.TOOLREG_BENCH_DATA ?? resolve(repositoryRoot, "../shared/bench-data");
  const missing = SETS.filter((set) => !existsSync(join(directory, set, "tools.jsonl")));
  if (missing.length > 0 || !existsSync(join(directory, "bm25-baseline.mjs"))) {
    console.error(
      `bench-data not found at ${directory} (missing ${missing.join(", ") || "bm25-baseline.mjs"}); ` +
        "set TOOLREG_BENCH_DATA to the folder holding metatool/, bfcl/ and bm25-baseline.mjs",
    );
    process.exit(1);
  }
  return directory;
}

function readJsonl<T>(path: string): T[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

/** The baseline's own `bm25-stop-stem` recall@5, computed by its script in this run. */
function baselineRecallAt5(directory: string, set: string): number {
  const output = execFileSync(process.execPath, [join(directory, "bm25-baseline.mjs"), set, "--json"], {
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  const parsed = JSON.parse(output) as {
    report: { variant: { name: string }; results: { all: Record<string, number> } }[];
  };
  const row = parsed.report.find((entry) => entry.variant.name === "bm25-stop-stem");
  const value = row?.results.all["recall@5"];
  if (value === undefined) throw new Error(`bm25-baseline.mjs ${set}: no bm25-stop-stem row`);
  return value;
}

/** Query latency at limit 10 (what `find_tools` asks for), after a warm-up pass. */
function latency(index: ToolSearchIndex, queries: string[]): { p50_ms: number; p99_ms: number } {
  for (const query of queries.slice(0, 500)) index.search(query, { limit: 10 });
  const times = queries.map((query) => {
    const started = performance.now();
    index.search(query, { limit: 10 });
    return performance.now() - started;
  });
  times.sort((a, b) => a - b);
  return { p50_ms: round(percentile(times, 0.5)), p99_ms: round(percentile(times, 0.99)) };
}

/** Same definitions as bm25-baseline.mjs: recall@k = |expected ∩ top-k| / |expected|, averaged over cases. */
async function quality(
  rank: (query: string) => string[] | Promise<string[]>,
  cases: BenchCase[],
): Promise<Pick<SetReport, "recall_at_1" | "recall_at_5" | "mrr">> {
  let recall1 = 0;
  let recall5 = 0;
  let reciprocal = 0;
  for (const { query, expected } of cases) {
    const ranked = await rank(query);
    const wanted = new Set(expected);
    const inTop = (k: number) => ranked.slice(0, k).filter((name) => wanted.has(name)).length;
    recall1 += inTop(1) / wanted.size;
    recall5 += inTop(5) / wanted.size;
    const first = ranked.findIndex((name) => wanted.has(name));
    reciprocal += first >= 0 ? 1 / (first + 1) : 0;
  }
  return {
    recall_at_1: round(recall1 / cases.length),
    recall_at_5: round(recall5 / cases.length),
    mrr: round(reciprocal / cases.length),
  };
}

/**
 * An encoder that keeps a copy of every vector it makes, so the 10,000-tool run can reuse the bfcl set's
 * vectors instead of embedding ten thousand texts again (a minute per thousand with the in-process
 * encoder). It never answers from the copy: every query the sets time is embedded afresh.
 */
function recording(encoder: EmbeddingProvider): EmbeddingProvider & { vectors: Map<string, number[]> } {
  const vectors = new Map<string, number[]>();
  return {
    vectors,
    async embed(texts) {
      const made = await encoder.embed(texts);
      for (const [i, text] of texts.entries()) vectors.set(text, made[i] ?? []);
      return made;
    },
  };
}

/**
 * The hybrid search (the in-process Universal Sentence Encoder, about 10 ms a query on one core, or
 * `--hybrid=openai`: an OpenAI-compatible endpoint), with its default weights unless
 * `TOOLREG_HYBRID_WEIGHTS` says otherwise. The large metatool set is read one case in five (a fixed,
 * spread sample).
 */
async function hybridReport(
  tools: SearchDocument[],
  cases: BenchCase[],
  encoder: EmbeddingProvider,
  weights: Partial<HybridWeights>,
) {
  const sample = cases.length > 4_000 ? cases.filter((_, index) => index % 5 === 0) : cases;
  const hybrid = new HybridToolSearch(new ToolSearchIndex(), encoder, { weights });
  await hybrid.add(tools);
  const times: number[] = [];
  const figures = await quality(async (query) => {
    const started = performance.now();
    const hits = await hybrid.search(query, { limit: 10 });
    times.push(performance.now() - started);
    return hits.map((hit) => hit.name);
  }, sample);
  times.sort((a, b) => a - b);
  return {
    hybrid_recall_at_1: figures.recall_at_1,
    hybrid_recall_at_5: figures.recall_at_5,
    hybrid_mrr: figures.mrr,
    hybrid_cases: sample.length,
    hybrid_p50_ms: round(percentile(times, 0.5)),
    hybrid_p99_ms: round(percentile(times, 0.99)),
  };
}

/**
 * The hybrid search's own time at 10,000 tools, the query's vector already made: each tool has its bfcl
 * original's vector (timing, not quality, is measured here), each query the vector the bfcl run made.
 */
async function hybridSearchLatency(
  large: SearchDocument[],
  originals: SearchDocument[],
  queries: string[],
  vectors: Map<string, number[]>,
  weights: Partial<HybridWeights>,
): Promise<{ hybrid_search_p50_ms: number; hybrid_search_p99_ms: number }> {
  const byText = new Map<string, number[]>();
  large.forEach((document, i) => {
    const original = originals[i % originals.length] as SearchDocument;
    byText.set(embeddingText(document), vectors.get(embeddingText(original)) ?? []);
  });
  const given: EmbeddingProvider = {
    embed: (texts) => texts.map((text) => byText.get(text) ?? vectors.get(text) ?? []),
  };
  const hybrid = new HybridToolSearch(new ToolSearchIndex(), given, { weights });
  await hybrid.add(large);
  for (const query of queries.slice(0, 300)) await hybrid.search(query, { limit: 10 });
  const times: number[] = [];
  for (const query of queries) {
    const started = performance.now();
    await hybrid.search(query, { limit: 10 });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return {
    hybrid_search_p50_ms: round(percentile(times, 0.5)),
    hybrid_search_p99_ms: round(percentile(times, 0.99)),
  };
}

/**
 * The encoder to fuse with: `--hybrid=openai` names the endpoint, `--words` none; otherwise the
 * in-process one when its optional packages are installed, and none, said on stderr, when they are not.
 */
async function loadEncoder(): Promise<EmbeddingProvider | undefined> {
  if (process.argv.includes("--words")) return undefined;
  const named = process.argv.find((argument) => argument === "--hybrid" || argument.startsWith("--hybrid="));
  const model = named?.split("=")[1] ?? "universal-sentence-encoder";
  if (!(EMBEDDING_MODELS as readonly string[]).includes(model)) {
    console.error(`--hybrid=${model}: one of ${EMBEDDING_MODELS.join(", ")}`);
    process.exit(1);
  }
  try {
    return await loadCliEmbeddings(model as EmbeddingModel, process.env);
  } catch (error) {
    if (named) throw error;
    console.error(`words alone: ${(error as Error).message}`);
    return undefined;
  }
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

function toDocuments(rows: { name: string; description: string; parameters: unknown }[]): SearchDocument[] {
  return rows.map((row) => ({ name: row.name, description: row.description, parameters: row.parameters }));
}

/** 10,000 tools made from the bfcl ones (renamed copies, some description words dropped), deterministic. */
function synthetic(tools: SearchDocument[], count: number): SearchDocument[] {
  let seed = 42;
  const random = () => {
    seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
    return seed / 2_147_483_648;
  };
  return Array.from({ length: count }, (_, i) => {
    const base = tools[i % tools.length]!;
    const copy = Math.floor(i / tools.length);
    const words = base.description.split(" ").filter(() => copy === 0 || random() > 0.2);
    return { ...base, name: copy === 0 ? base.name : `${base.name}_v${copy}`, description: words.join(" ") };
  });
}

async function main(): Promise<void> {
  const asJson = process.argv.includes("--json");
  const loaded = await loadEncoder();
  const encoder = loaded && recording(loaded);
  const directory = benchDataDirectory();
  const options: ToolSearchIndexOptions = process.env.TOOLREG_SEARCH_OPTIONS
    ? (JSON.parse(process.env.TOOLREG_SEARCH_OPTIONS) as ToolSearchIndexOptions)
    : {};
  // Another embedding model may want other shares: `TOOLREG_HYBRID_WEIGHTS='{"semantic":0.8}'`.
  const weights: Partial<HybridWeights> = process.env.TOOLREG_HYBRID_WEIGHTS
    ? (JSON.parse(process.env.TOOLREG_HYBRID_WEIGHTS) as Partial<HybridWeights>)
    : {};
  const report: Record<string, unknown> = {};
  let bfclTools: SearchDocument[] = [];
  let bfclQueries: string[] = [];
  for (const set of SETS) {
    const tools = toDocuments(readJsonl(join(directory, set, "tools.jsonl")));
    const cases = readJsonl<BenchCase>(join(directory, set, "cases.jsonl"));
    const index = new ToolSearchIndex(tools, options);
    const queries = cases.map((entry) => entry.query);
    report[set] = {
      ...(await quality((query) => index.search(query, { limit: index.size }).map((hit) => hit.name), cases)),
      baseline_recall_at_5: round(baselineRecallAt5(directory, set)),
      ...latency(index, queries),
      ...(encoder ? await hybridReport(tools, cases, encoder, weights) : {}),
    } satisfies SetReport;
    if (set === "bfcl") {
      bfclTools = tools;
      bfclQueries = queries;
    }
  }
  const started = performance.now();
  const documents = synthetic(bfclTools, 10_000);
  const large = new ToolSearchIndex(documents, options);
  const buildMs = performance.now() - started;
  report.synthetic_10000 = {
    ...latency(large, bfclQueries),
    build_ms: round(buildMs),
    ...(encoder
      ? await hybridSearchLatency(documents, bfclTools, bfclQueries, encoder.vectors, weights)
      : {}),
  };
  if (asJson) {
    console.log(JSON.stringify(report));
    return;
  }
  for (const [name, figures] of Object.entries(report)) console.log(name, figures);
}

await main();
