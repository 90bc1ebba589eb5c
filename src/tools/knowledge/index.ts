/** @module The knowledge toolkit: search_knowledge and read_knowledge over a KnowledgeBase. */
import type { KnowledgeBase, KnowledgeEmbedder } from "../../ports/knowledge-base.js";
import type { ToolModule } from "../../registry/tool-module.js";
import { knowledgeToolkit } from "./toolkit.js";

export { knowledgeToolkit } from "./toolkit.js";

export interface KnowledgeToolDeps {
  /** The tenants' knowledge bases and the model their sources were embedded by; without both, no tools. */
  knowledge?: KnowledgeBase;
  knowledgeEmbedder?: KnowledgeEmbedder;
}

export const knowledgeTools: ToolModule<KnowledgeToolDeps> = (deps) =>
  deps.knowledge && deps.knowledgeEmbedder
    ? knowledgeToolkit.withEnv({ knowledge: deps.knowledge, embedder: deps.knowledgeEmbedder })
    : [];
