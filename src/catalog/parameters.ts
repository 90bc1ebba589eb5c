/** @module The JSON Schema a provider receives as a tool's parameters: the input schema without `$schema`. */
import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";

/** A deep copy of the tool's input schema minus the top-level `$schema`, which no provider wants. */
export function parametersOf(tool: AnyTool): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = tool.inputJsonSchema;
  // A copy, so a caller that mutates a rendered catalogue cannot reach into the tool.
  return structuredClone(rest);
}
