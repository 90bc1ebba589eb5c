/** @module A tool's arguments in one line, `query: string, limit?: integer`, for a search hit a model can act on. */
import type { AnyTool } from "../../registry/registry.js";

export function argumentSummary(tool: AnyTool): string {
  const schema = tool.inputJsonSchema;
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; enum?: unknown }>;
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  const parts = Object.entries(properties).map(([name, property]) => {
    const type = Array.isArray(property?.enum)
      ? property.enum.map((value) => JSON.stringify(value)).join("|")
      : Array.isArray(property?.type)
        ? property.type.join("|")
        : typeof property?.type === "string"
          ? property.type
          : "any";
    return `${name}${required.has(name) ? "" : "?"}: ${type}`;
  });
  return parts.length > 0 ? parts.join(", ") : "no arguments";
}
