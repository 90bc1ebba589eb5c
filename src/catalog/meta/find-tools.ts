/** @module `find_tools`: search what this caller may use, with the same filter discovery and calls use. */

import { z } from "zod";
import { CATEGORIES } from "../../declaration/categories.js";
import { defineTool } from "../../declaration/define-tool.js";
import type { Seam } from "../../seam/seam.js";
import { descriptionForModel } from "../model-description.js";
import type { EmbeddingProvider } from "../search/embedding-provider.js";
import type { SearchOptions } from "../search/tool-search-index.js";
import { argumentSummary } from "./argument-summary.js";
import { META_CATEGORY } from "./meta-deps.js";
import { toolSearchFor } from "./search-cache.js";

export interface FoundTool {
  name: string;
  description: string;
  category: string;
  effect: string;
  approval: string;
  arguments: string;
  score: number;
}

export function createFindTools(seam: () => Seam, embeddings?: EmbeddingProvider, clock?: () => number) {
  return defineTool({
    name: "find_tools",
    description:
      'Search the tools you may use but were not shown, by what you want to do (e.g. "read a web page", "query a database"). Returns the best matches with their effect and arguments; call one with execute_tool, or ask learn_tools for its full schema first.',
    category: "meta",
    effect: "read",
    input: z.object({
      query: z.string().trim().min(1).max(500).describe("what you want to do, in a few words"),
      limit: z.number().int().min(1).max(20).default(5).describe("how many matches to return"),
      category: z
        .enum(CATEGORIES.filter((category) => category !== META_CATEGORY))
        .optional()
        .describe("only tools of this category"),
    }),
    async run({ query, limit, category }, context) {
      const served = seam();
      const registry = served.registry;
      const search = await toolSearchFor(registry, embeddings, context.logger, clock);
      // Words alone ask authorization about the best-ranked hits only, so a 10,000-tool catalogue is not
      // listed per query; the hybrid search asks once per document, as it scores every one.
      const options: SearchOptions = {
        limit,
        filter: (document) => {
          const tool = registry.get(document.name);
          return (
            tool !== undefined &&
            tool.category !== META_CATEGORY &&
            (!category || tool.category === category) &&
            served.mayUse(context, tool)
          );
        },
      };
      // An embedding service that fails (a 5xx, a timeout) costs the model its meaning match, not its
      // answer: the words still rank, and the log says so.
      const hits = await search.search(query, options, context.logger);
      const found: FoundTool[] = [];
      for (const hit of hits) {
        const tool = registry.get(hit.name);
        if (!tool) continue;
        found.push({
          name: tool.name,
          description: descriptionForModel(tool),
          category: tool.category,
          effect: tool.effect,
          approval: tool.approval,
          arguments: argumentSummary(tool),
          score: Math.round(hit.score * 1000) / 1000,
        });
      }
      if (found.length === 0) {
        return {
          content: `No tool you may use matches "${query}". Try other words, or a broader category.`,
          data: { tools: found },
        };
      }
      const lines = found.map(
        (tool) =>
          `- ${tool.name} (${tool.effect}${tool.approval === "never" ? "" : `, approval ${tool.approval}`}): ${tool.description}\n  arguments: ${tool.arguments}`,
      );
      lines.push(
        'Call one with execute_tool {"name": …, "arguments": {…}}; learn_tools gives a full schema.',
      );
      return { content: lines.join("\n"), data: { tools: found } };
    },
  });
}
