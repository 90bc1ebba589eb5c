/** @module What the knowledge tools run against: the tenant's knowledge base and the embedder its sources were indexed with. */
import type { KnowledgeBase, KnowledgeEmbedder, KnowledgeHit } from "../../ports/knowledge-base.js";
import type { Citation } from "../../seam/envelope.js";
import { toolFor } from "../toolkit/define-toolkit.js";

export interface KnowledgeEnv {
  knowledge: KnowledgeBase;
  embedder: KnowledgeEmbedder;
}

export const knowledgeTool = toolFor<KnowledgeEnv>();

const SNIPPET_CHARS = 240;

/** A hit as the evidence it is: which source, where in it, and the start of what it says. */
export function citationOf({ chunk, source }: KnowledgeHit): Citation {
  const snippet =
    chunk.text.length > SNIPPET_CHARS
      ? `${chunk.text.slice(0, SNIPPET_CHARS).replace(/\s+\S*$/, "")}…`
      : chunk.text;
  return { sourceId: source.id, chunkId: chunk.id, title: source.title, location: chunk.location, snippet };
}

/** "Handbook › Terms › Refunds, page 3": where a chunk sits, for a model to quote. */
export function placeOf({ chunk, source }: KnowledgeHit): string {
  // A document's first heading is often its title: not said twice.
  const headings =
    chunk.location.headings[0] === source.title ? chunk.location.headings.slice(1) : chunk.location.headings;
  const path = [source.title, ...headings].join(" › ");
  return chunk.location.page === undefined ? path : `${path}, page ${chunk.location.page}`;
}
