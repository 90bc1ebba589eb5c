/** @module Flattens a JSON Schema's parameter names and descriptions into searchable text. */

/** Deepest nesting read; tool inputs deeper than this are rare and their leaves add little. */
const MAX_DEPTH = 6;
/** Most schema nodes read, so a huge or self-referencing schema costs a bounded amount. */
const MAX_NODES = 500;

/** Enum values read per property; a long list (countries, currencies) says what a tool covers in its first few. */
const MAX_ENUM_VALUES = 50;

/**
 * Property names, descriptions and string enum values of a JSON Schema, nested objects and array items
 * included. Enum values name what a tool handles ("Music", "Theater"; "Psychologist") in the words a
 * request uses, often words its description does not repeat.
 */
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
        if (isRecord(property)) enumText(property.enum, parts);
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

function enumText(values: unknown, parts: string[]): void {
  if (!Array.isArray(values)) return;
  for (const value of values.slice(0, MAX_ENUM_VALUES)) if (typeof value === "string") parts.push(value);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
