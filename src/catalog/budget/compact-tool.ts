/**
 * @module The compact form of a tool for a model: the first sentence of its description and a schema that
 * keeps every parameter's name, type, requiredness and allowed values but drops prose and bounds. The seam
 * still validates against the full schema, and its refusals name what was wrong.
 */
import type { JsonSchemaObject } from "../../declaration/json-schema-validator.js";
import type { AnyTool } from "../../registry/registry.js";

const MAX_DESCRIPTION = 60;

/** Keywords that carry prose or bounds, not shape. */
const DROPPED = new Set([
  "description",
  "title",
  "examples",
  "default",
  "$comment",
  "format",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "pattern",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minProperties",
  "maxProperties",
  "deprecated",
  "readOnly",
  "writeOnly",
  // JSON object keys are strings whatever this says.
  "propertyNames",
]);
/** Keywords whose value maps names to schemas: the names are data, only the values are schemas. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
const SCHEMA_LISTS = new Set(["anyOf", "oneOf", "allOf", "prefixItems"]);
const SCHEMA_VALUES = new Set(["items", "not", "contains", "if", "then", "else"]);

/** The tool with its compact description and schema; everything else, the name included, unchanged. */
export function compactTool(tool: AnyTool): AnyTool {
  return {
    ...tool,
    description: compactDescription(tool.description),
    inputJsonSchema: compactSchema(tool.inputJsonSchema) as JsonSchemaObject,
  };
}

/**
 * The first sentence; when that is long, without its asides in parentheses, then its first clause; and at
 * most about sixty characters, cut at a word and never inside an open parenthesis. The name says the
 * rest, and find_tools or learn_tools give the whole text.
 */
export function compactDescription(description: string): string {
  const text = description.trim().replace(/\s+/g, " ");
  // A sentence ends before a capital or at the end: "e.g. a page" does not end one.
  const end = /[.!?](?=\s+[A-Z]|$)/.exec(text);
  let sentence = end ? text.slice(0, end.index + 1) : text;
  if (sentence.length > MAX_DESCRIPTION) sentence = withoutAsides(sentence);
  if (sentence.length > MAX_DESCRIPTION) {
    const clause = /[,;:—]\s/.exec(sentence);
    if (clause && clause.index >= MAX_DESCRIPTION / 3) sentence = `${sentence.slice(0, clause.index)}.`;
  }
  if (sentence.length <= MAX_DESCRIPTION) return sentence;
  let cut = sentence.slice(0, MAX_DESCRIPTION);
  const open = cut.lastIndexOf("(");
  if (open > cut.lastIndexOf(")")) cut = cut.slice(0, open);
  const space = cut.lastIndexOf(" ");
  if (space > MAX_DESCRIPTION / 2) cut = cut.slice(0, space);
  return `${cut.trimEnd().replace(/[,;:]$/, "")}…`;
}

/** The text without its parenthesised asides, innermost first: "time (ISO 8601, UTC) now" → "time now". */
function withoutAsides(text: string): string {
  let previous: string;
  let current = text;
  do {
    previous = current;
    current = current.replace(/\s*\([^()]*\)/g, "");
  } while (current !== previous);
  return current;
}

export function compactSchema(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const compact: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.has(keyword) || keyword === "$schema") continue;
    // An enum's values already say their type.
    if (keyword === "type" && Array.isArray((schema as { enum?: unknown }).enum)) continue;
    if (SCHEMA_MAPS.has(keyword) && typeof value === "object" && value !== null) {
      compact[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, compactSchema(child)]),
      );
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      compact[keyword] = value.map(compactSchema);
    } else if (SCHEMA_VALUES.has(keyword) || keyword === "additionalProperties") {
      // A boolean here is kept as it is: strict modes need `additionalProperties: false`.
      compact[keyword] = compactSchema(value);
    } else {
      compact[keyword] = value;
    }
  }
  return compact;
}
