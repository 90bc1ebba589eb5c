/** @module Flattens a JSON Schema's parameter names and descriptions into searchable text. */

/** Deepest nesting read; tool inputs deeper than this are rare and their leaves add little. */
const MAX_DEPTH = 6;
/** Most schema nodes read, so a huge or self-referencing schema costs a bounded amount. */
const MAX_NODES = 500;

/** Property names and descriptions of a JSON Schema, nested objects and array items included. */
export function schemaText(schema: unknown): string {
  const parts: string[] = [];
  const seen = new Set<object>();
  let budget = MAX_NODES;
  const visit = (node: unknown, depth: number): void => {
    if (!isRecord(node) || depth > MAX_DEPTH || seen.has(node) || budget-- <= 0) return;
    seen.add(node);
    const properties = node.properties;
    if (isRecord(properties)) {
      for (const [name, property] of Object.entries(properties)) {
        parts.push(name);
        if (isRecord(property) && typeof property.description === "string") parts.push(property.description);
        visit(property, depth + 1);
      }
    }
    visit(node.items, depth + 1);
    for (const key of ["anyOf", "oneOf", "allOf"] as const) {
      const branches = node[key];
      if (Array.isArray(branches)) for (const branch of branches) visit(branch, depth + 1);
    }
  };
  visit(schema, 0);
  return parts.join(" ");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
