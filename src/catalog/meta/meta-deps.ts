/** @module What the meta-tools need: the seam they search and call through, and where cut outputs are kept. */

import type { OutputStore } from "../../seam/output-store.js";
import type { Seam } from "../../seam/seam.js";
import type { EmbeddingProvider } from "../search/embedding-provider.js";

export interface MetaToolDeps {
  /**
   * The seam the host serves these tools through. A function, because that seam is built over a registry
   * that already holds them. find_tools, learn_tools and execute_tool exist only when it is given.
   */
  seam?: () => Seam;
  /** The seam's output store; read_tool_output exists only when it is given. */
  outputs?: OutputStore;
  /** Makes find_tools hybrid (BM25F fused with these embeddings); lexical without it. */
  embeddings?: EmbeddingProvider;
  /** Epoch milliseconds, timing find_tools' back-off after the embedding provider fails; `Date.now` if not given. */
  clock?: () => number;
}

/** The category every meta-tool has; find_tools never returns one, execute_tool never runs one. */
export const META_CATEGORY = "meta";
