/**
 * @module The knowledge toolkit: the tenant's knowledge base, searched and cited. With no knowledge base or
 * no embedder on the host its tools are not served.
 */
import { z } from "zod";
import { defineToolkit } from "../toolkit/define-toolkit.js";
import { readKnowledgeSpec } from "./read-knowledge.js";
import { searchKnowledgeSpec } from "./search-knowledge.js";

export const knowledgeToolkit = defineToolkit({
  id: "knowledge",
  version: "1.0.0",
  package: "toolreg",
  description:
    "The organisation's knowledge base: search it by words and meaning, with citations, and re-read a cited passage.",
  config: z.strictObject({}),
  auth: { kind: "none" },
  tools: [searchKnowledgeSpec, readKnowledgeSpec],
  bind: (_config, host) =>
    host.knowledge && host.knowledgeEmbedder
      ? { knowledge: host.knowledge, embedder: host.knowledgeEmbedder }
      : undefined,
});
