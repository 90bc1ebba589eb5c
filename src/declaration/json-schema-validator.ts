/** @module Validation of plain JSON Schema inputs (tools imported from MCP servers arrive this way). */
import { Ajv, type ValidateFunction } from "ajv";
import { Ajv2020 } from "ajv/dist/2020.js";

/** One reason an input failed its schema. Here, beneath the schemas of both kinds, so neither imports the other. */
export interface ValidationIssue {
  /** Dotted path to the failing value; empty for the root. */
  path: string;
  message: string;
}

export type JsonSchemaObject = Record<string, unknown>;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: JsonSchemaObject): Ajv | Ajv2020 {
  const dialect = typeof schema.$schema === "string" ? schema.$schema : "";
  // MCP servers mostly send draft-07 or no $schema; zod and newer emitters send 2020-12.
  if (dialect.includes("2020-12") || dialect.includes("2019-09")) {
    draft2020 ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
    return draft2020;
  }
  draft07 ??= new Ajv({ allErrors: true, strict: false, validateFormats: false });
  return draft07;
}

/** Compiles once; throws when the schema itself is not valid JSON Schema. */
export function compileJsonSchema(schema: JsonSchemaObject): (value: unknown) => ValidationIssue[] {
  const ajv = ajvFor(schema);
  const validate: ValidateFunction = ajv.compile(schema);
  // Ajv keeps every compiled schema (and its $id) for the life of the process; imported tools are declared
  // again at every re-listing, so that would grow without end and refuse a schema with an $id the second
  // time. The compiled function does not need the cache entry.
  ajv.removeSchema(schema);
  return (value) => {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => ({
      path: pointerToPath(
        error.keyword === "required"
          ? `${error.instancePath}/${String((error.params as { missingProperty?: string }).missingProperty)}`
          : error.instancePath,
      ),
      message: error.keyword === "required" ? "is required" : (error.message ?? "is invalid"),
    }));
  };
}

function pointerToPath(pointer: string): string {
  return pointer
    .split("/")
    .slice(1)
    .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
    .join(".");
}
