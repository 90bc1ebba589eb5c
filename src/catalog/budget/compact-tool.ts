/**
 * @module The compact form of a tool for a model: the first sentence of its description and a schema that
 * keeps every parameter's name, type, requiredness and allowed values but drops prose and bounds, and
 * says a union of plain types as a list of types. An enum keeps its type: OpenAI's renderer shows an
 * untyped enum as `any`, and Gemini refuses one. The seam still validates against the full schema, and
 * its refusals name what was wrong.
 */
import type { JsonSchemaObject } from "../../declaration/json-schema-validator.js";
import type { AnyTool } from "../../registry/registry.js";
import { compactDescription } from "./compact-description.js";

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
 * The type names, once each, when every member is a schema of one type and nothing else. Members that
 * differed only in what compaction dropped (two string formats) name one type twice; a list of types
 * may not repeat one, and a single type is said as itself.
 */
function bareTypes(members: unknown[]): string | string[] | undefined {
  const types = members.map((member) =>
    typeof member === "object" &&
    member !== null &&
    Object.keys(member).length === 1 &&
    typeof (member as { type?: unknown }).type === "string"
      ? (member as { type: string }).type
      : undefined,
  );
  if (types.length < 2 || types.some((type) => type === undefined)) return undefined;
  const distinct = [...new Set(types as string[])];
  return distinct.length === 1 ? distinct[0] : distinct;
}

function isEmptySchema(value: unknown): boolean {
  return (
    typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0
  );
}

export function compactSchema(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return schema;
  const compact: Record<string, unknown> = {};
  for (const [keyword, value] of Object.entries(schema)) {
    if (DROPPED.has(keyword) || keyword === "$schema") continue;
    if (SCHEMA_MAPS.has(keyword) && typeof value === "object" && value !== null) {
      compact[keyword] = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, compactSchema(child)]),
      );
    } else if (SCHEMA_LISTS.has(keyword) && Array.isArray(value)) {
      const members = value.map(compactSchema);
      const types = keyword === "anyOf" && !("type" in schema) ? bareTypes(members) : undefined;
      // `anyOf: [{type: string}, {type: null}]` says no more than `type: [string, null]`, in half the tokens.
      if (types) compact.type = types;
      else compact[keyword] = members;
    } else if (keyword === "additionalProperties" && (value === true || isEmptySchema(value))) {
      // Allowed anyway: an object schema admits other properties unless it says otherwise.
    } else if (SCHEMA_VALUES.has(keyword) || keyword === "additionalProperties") {
      // A boolean here is kept as it is: strict modes need `additionalProperties: false`.
      compact[keyword] = compactSchema(value);
    } else {
      compact[keyword] = value;
    }
  }
  return compact;
}
