/** @module Maps a registry `Tool` to the document the search index reads. */

import type { Tool } from "../../declaration/define-tool.js";
import type { SearchDocument } from "./tool-search-index.js";

/** The searchable view of a tool: name, description, category and input JSON Schema. */
export function toSearchDocument(
  tool: Pick<Tool, "name" | "description" | "category" | "inputJsonSchema">,
): SearchDocument {
  return {
    name: tool.name,
    description: tool.description,
    category: tool.category,
    parameters: tool.inputJsonSchema,
  };
}
