/** @module The in-process knowledge base against the conformance suite. */
import { runKnowledgeBaseConformance } from "../../ports/knowledge-base.conformance.js";
import { createMemoryKnowledgeBase } from "./knowledge.js";

runKnowledgeBaseConformance("memory", async () => ({
  store: createMemoryKnowledgeBase(),
  cleanup: async () => {},
}));
