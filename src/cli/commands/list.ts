/** @module `toolreg list`: the catalogue as a table, or as JSON with each tool's input schema. */
import type { AnyTool } from "../../registry/registry.js";
import type { CliIo } from "../cli-io.js";
import { ellipsis, formatJson, formatTable } from "../format.js";

export function listTools(tools: readonly AnyTool[], options: { json?: boolean }, io: CliIo): number {
  if (options.json) {
    io.stdout(
      formatJson(
        tools.map((tool) => ({
          name: tool.name,
          version: tool.version,
          category: tool.category,
          effect: tool.effect,
          approval: tool.approval,
          idempotencyKey: tool.idempotencyKey,
          description: tool.description,
          inputSchema: tool.inputJsonSchema,
        })),
      ),
    );
    return 0;
  }
  io.stdout(
    formatTable(
      ["NAME", "CATEGORY", "EFFECT", "APPROVAL", "KEY", "DESCRIPTION"],
      tools.map((tool) => [
        tool.name,
        tool.category,
        tool.effect,
        tool.approval,
        tool.idempotencyKey ? "yes" : "no",
        ellipsis(tool.description, 70),
      ]),
    ),
  );
  return 0;
}
