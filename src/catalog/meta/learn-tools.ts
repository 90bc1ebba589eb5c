/** @module `learn_tools`: the full schemas of tools a model found, for exactly the tools this caller may use. */

import { z } from "zod";
import { defineTool } from "../../declaration/define-tool.js";
import { ToolFailure } from "../../errors/tool-failure.js";
import { nearestNames } from "../../seam/nearest-names.js";
import type { Seam } from "../../seam/seam.js";
import { descriptionForModel } from "../model-description.js";
import { parametersOf } from "../parameters.js";

export function createLearnTools(seam: () => Seam) {
  return defineTool({
    name: "learn_tools",
    description:
      "Get the full description and JSON Schema of tools by name (names from find_tools), before calling them with execute_tool.",
    category: "meta",
    effect: "read",
    input: z.object({
      names: z.array(z.string().min(1).max(64)).min(1).max(20).describe("tool names, e.g. from find_tools"),
    }),
    run({ names }, context) {
      const visible = new Map(
        seam()
          .visibleTools(context)
          .map((tool) => [tool.name, tool]),
      );
      const learned = [];
      const unknown: { name: string; nearest: string[] }[] = [];
      for (const name of new Set(names)) {
        const tool = visible.get(name);
        if (!tool) {
          unknown.push({ name, nearest: nearestNames(name, [...visible.keys()]) });
          continue;
        }
        learned.push({
          name: tool.name,
          description: descriptionForModel(tool),
          category: tool.category,
          effect: tool.effect,
          approval: tool.approval,
          parameters: parametersOf(tool),
        });
      }
      const unknownText = unknown
        .map(
          ({ name, nearest }) =>
            `"${name}"${nearest.length > 0 ? ` (did you mean ${nearest.join(", ")}?)` : ""}`,
        )
        .join(", ");
      if (learned.length === 0) {
        throw new ToolFailure(
          "unknown_tool",
          `no tool you may use is named ${unknownText}; search with find_tools`,
          {
            details: { unknown },
          },
        );
      }
      const text = learned.map(
        (tool) =>
          `## ${tool.name} (${tool.effect}, approval ${tool.approval})\n${tool.description}\nparameters: ${JSON.stringify(tool.parameters)}`,
      );
      if (unknown.length > 0) text.push(`Not available to you: ${unknownText}.`);
      return { content: text.join("\n\n"), data: { tools: learned, unknown } };
    },
  });
}
