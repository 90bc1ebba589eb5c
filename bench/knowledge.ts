/**
 * @module Retrieval quality of search_knowledge's knowledge base: recall@5 of hybrid ranking against words
 * alone and vectors alone, in one run, on the same SQLite store. No public retrieval set (BEIR and the
 * like) ships in an npm package, so the set is built from ../shared/bench-data: each tool's name and
 * description is a source of one chunk, each case's query must find the tools it names. The embedder is the
 * in-process Universal Sentence Encoder when installed (`--embeddings=hashed` for the local hashed bag of
 * words). `--cases=N` cases per set (every k-th, 500 unless given).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { HashedBagOfWordsEmbedding } from "../src/catalog/search/embedding-provider.js";
import { loadUniversalSentenceEncoder } from "../src/embeddings/universal-sentence-encoder.js";
import { ingest } from "../src/knowledge/ingest.js";
import type { KnowledgeEmbedder, SearchMode } from "../src/ports/knowledge-base.js";
import { openDatabase } from "../src/stores/sqlite/database.js";
import { createSqliteKnowledgeBase } from "../src/stores/sqlite/knowledge.js";

const SETS = ["metatool", "bfcl"] as const;
const MODES: readonly SearchMode[] = ["hybrid", "words", "vectors"];
const READER = { tenantId: "bench", subjects: ["tenant"] };

const option = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const directory =
  process.env.TOOLREG_BENCH_DATA ??
  resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/bench-data");
const jsonl = <T>(path: string): T[] =>
  readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);

async function embedder(): Promise<KnowledgeEmbedder> {
  if (option("embeddings") !== "hashed") {
    try {
      const encoder = await loadUniversalSentenceEncoder();
      return { model: "universal-sentence-encoder", embed: (texts) => encoder.embed(texts) };
    } catch (error) {
      console.error(
        `universal-sentence-encoder unavailable (${(error as Error).message}); hashed words instead`,
      );
    }
  }
  const hashed = new HashedBagOfWordsEmbedding(256);
  return { model: "hashed-256", embed: (texts) => hashed.embed(texts) };
}

async function measure(set: (typeof SETS)[number], model: KnowledgeEmbedder, wanted: number) {
  const tools = jsonl<{ name: string; description: string }>(join(directory, set, "tools.jsonl"));
  const all = jsonl<{ query: string; expected: string[] }>(join(directory, set, "cases.jsonl"));
  const step = Math.max(1, Math.floor(all.length / wanted));
  const cases = all.filter((_, n) => n % step === 0).slice(0, wanted);
  const folder = mkdtempSync(join(tmpdir(), "toolreg-bench-kb-"));
  const database = openDatabase(join(folder, "kb.db"));
  try {
    const knowledge = createSqliteKnowledgeBase(database);
    const started = performance.now();
    const sourceOf = new Map<string, string>();
    for (const tool of tools) {
      const { source } = await ingest(
        { knowledge, embedder: model, batchSize: 64 },
        {
          tenantId: READER.tenantId,
          title: tool.name,
          kind: "text",
          origin: "bench",
          authSubjects: ["tenant"],
          sections: [
            { text: `${tool.name.replace(/[_.]/g, " ")}: ${tool.description}`.slice(0, 1_200), headings: [] },
          ],
        },
      );
      sourceOf.set(source.id, tool.name);
    }
    const indexMs = performance.now() - started;
    const recall = Object.fromEntries(MODES.map((mode) => [mode, 0])) as Record<SearchMode, number>;
    let empty = 0;
    for (const { query, expected } of cases) {
      const [values] = await model.embed([query]);
      const vector = { model: model.model, values: values as number[] };
      for (const mode of MODES) {
        const hits = await knowledge.search(READER, { text: query, vector, limit: 5, mode });
        if (mode === "hybrid" && hits.length === 0) empty++;
        const top = new Set(hits.map((hit) => sourceOf.get(hit.source.id)));
        recall[mode] += expected.filter((name) => top.has(name)).length / expected.length;
      }
    }
    const round = (value: number) => Math.round((value / cases.length) * 1000) / 1000;
    return {
      set,
      sources: tools.length,
      cases: cases.length,
      index_s: Math.round(indexMs / 100) / 10,
      hybrid_recall_at_5: round(recall.hybrid),
      words_recall_at_5: round(recall.words),
      vectors_recall_at_5: round(recall.vectors),
      hybrid_empty: empty,
    };
  } finally {
    database.close();
    rmSync(folder, { recursive: true, force: true });
  }
}

const missing = SETS.filter((set) => !existsSync(join(directory, set, "tools.jsonl")));
if (missing.length > 0) {
  console.error(
    `bench-data not found at ${directory} (missing ${missing.join(", ")}); set TOOLREG_BENCH_DATA`,
  );
  process.exit(1);
}
const model = await embedder();
const wanted = Number(option("cases") ?? 500);
console.log(
  `search_knowledge retrieval, embedder ${model.model}, recall@5 (|expected ∩ top 5| / |expected|):`,
);
for (const set of SETS) console.log(JSON.stringify(await measure(set, model, wanted)));
