/**
 * @module The knowledge base as the CLI hosts it: the embedder its sources are indexed and searched with
 * (the --embeddings model, else a local hashed bag of words that needs no model and no network), and the
 * intake `toolreg kb add`, `toolreg serve`'s API and the console add sources through.
 */
import { type EmbeddingProvider, HashedBagOfWordsEmbedding } from "../catalog/search/embedding-provider.js";
import { createEgressClient } from "../egress/egress-client.js";
import type { EgressPolicyInit } from "../egress/egress-policy.js";
import { createKnowledgeIntake } from "../knowledge/intake.js";
import type { AttachmentStore } from "../ports/attachment-store.js";
import type { KnowledgeBase, KnowledgeEmbedder, KnowledgeIntake } from "../ports/knowledge-base.js";
import { DEFAULT_OPENAI_MODEL, type EmbeddingModel } from "./cli-embeddings.js";
import type { CliIo } from "./cli-io.js";

/** The model name the local embedder's vectors are stored under. */
export const LOCAL_KNOWLEDGE_MODEL = "toolreg-hashed-words-1024";

/**
 * The embedder for the knowledge base: the --embeddings model when one is named (its name includes the
 * OpenAI-compatible model, so a change of model is never compared with old vectors), else the local one.
 */
export function cliKnowledgeEmbedder(
  model: EmbeddingModel | undefined,
  provider: EmbeddingProvider | undefined,
  env: CliIo["env"],
): KnowledgeEmbedder {
  if (model && provider) {
    const name =
      model === "openai"
        ? `openai:${env.TOOLREG_EMBEDDINGS_MODEL || DEFAULT_OPENAI_MODEL}${env.TOOLREG_EMBEDDINGS_DIMENSIONS ? `:${env.TOOLREG_EMBEDDINGS_DIMENSIONS}` : ""}`
        : model;
    return { model: name, embed: (texts) => provider.embed(texts) };
  }
  // Its vectors are hashed words, so a hit by vector alone is mostly two words sharing a bucket: many
  // buckets make that rare, and a high floor keeps what remains out of the results.
  const local = new HashedBagOfWordsEmbedding(1024);
  return { model: LOCAL_KNOWLEDGE_MODEL, minSimilarity: 0.6, embed: (texts) => local.embed(texts) };
}

/** An intake over the deployment's knowledge base; URLs go through an egress client under `egressPolicy`. */
export function cliKnowledgeIntake(deps: {
  knowledge: KnowledgeBase;
  embedder: KnowledgeEmbedder;
  attachments?: AttachmentStore | undefined;
  egressPolicy?: EgressPolicyInit;
}): KnowledgeIntake & { close(): Promise<void> } {
  const egress = createEgressClient(deps.egressPolicy ? { policy: deps.egressPolicy } : {});
  const intake = createKnowledgeIntake({
    knowledge: deps.knowledge,
    embedder: deps.embedder,
    egress,
    attachments: deps.attachments,
  });
  return { add: (tenantId, addition) => intake.add(tenantId, addition), close: () => egress.close() };
}
