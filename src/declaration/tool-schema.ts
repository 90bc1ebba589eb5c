/** @module One view over the schema kinds a tool may declare: Standard Schema (zod v4) or plain JSON Schema. */
import type { StandardJSONSchemaV1, StandardSchemaV1 } from "@standard-schema/spec";
import { compileJsonSchema, type JsonSchemaObject, type ValidationIssue } from "./json-schema-validator.js";

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

/** A schema the seam can validate against and render as JSON Schema. */
export interface ToolSchema<T = unknown> {
  readonly jsonSchema: JsonSchemaObject;
  /** Synchronous where the underlying schema is, so the seam's hot path does not await needlessly. */
  validate(value: unknown): ValidationResult<T> | Promise<ValidationResult<T>>;
}

/** Anything a declaration may give as `input` or `output`. */
export type SchemaLike<T = unknown> =
  | (StandardSchemaV1<unknown, T> & StandardJSONSchemaV1<unknown, T>)
  | JsonSchemaObject;

function isStandardSchema(value: object): value is StandardSchemaV1 {
  return "~standard" in value;
}

/** Normalises a declared schema; throws a plain Error with the reason when it cannot become JSON Schema. */
export function toToolSchema<T>(schema: unknown, direction: "input" | "output"): ToolSchema<T> {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) {
    throw new Error("must be a Standard Schema (zod v4) or a JSON Schema object");
  }
  if (isStandardSchema(schema)) return fromStandard<T>(schema, direction);
  return fromJsonSchema<T>(schema as JsonSchemaObject);
}

function fromStandard<T>(schema: StandardSchemaV1, direction: "input" | "output"): ToolSchema<T> {
  const props = schema["~standard"] as StandardSchemaV1.Props & Partial<StandardJSONSchemaV1.Props>;
  if (!props.jsonSchema) {
    throw new Error(`a ${props.vendor} schema that cannot give JSON Schema (no ~standard.jsonSchema)`);
  }
  let jsonSchema: JsonSchemaObject;
  try {
    // Its own fields only: zod marks its output with a hidden `~standard`, which frameworks (OpenAI Agents
    // 0.20) take for a Standard Schema to validate with, when it is meant as plain JSON Schema.
    jsonSchema = { ...props.jsonSchema[direction]({ target: "draft-2020-12" }) };
  } catch (error) {
    throw new Error(`cannot become JSON Schema: ${(error as Error).message}`);
  }
  const toResult = (result: StandardSchemaV1.Result<unknown>): ValidationResult<T> =>
    result.issues
      ? {
          ok: false,
          issues: result.issues.map((issue) => ({ path: formatPath(issue.path), message: issue.message })),
        }
      : { ok: true, value: result.value as T };
  return {
    jsonSchema,
    validate(value) {
      const result = props.validate(value);
      return result instanceof Promise ? result.then(toResult) : toResult(result);
    },
  };
}

function fromJsonSchema<T>(schema: JsonSchemaObject): ToolSchema<T> {
  let check: (value: unknown) => ValidationIssue[];
  try {
    check = compileJsonSchema(schema);
  } catch (error) {
    throw new Error(`is not valid JSON Schema: ${(error as Error).message}`);
  }
  return {
    jsonSchema: schema,
    validate(value) {
      const issues = check(value);
      return issues.length === 0 ? { ok: true, value: value as T } : { ok: false, issues };
    },
  };
}

function formatPath(path: StandardSchemaV1.Issue["path"]): string {
  if (!path) return "";
  return path.map((segment) => String(typeof segment === "object" ? segment.key : segment)).join(".");
}

/** One line a model can act on: `expression: Expected string; limit: Too big`. */
export function describeIssues(issues: readonly ValidationIssue[]): string {
  return issues.map((issue) => (issue.path ? `${issue.path}: ${issue.message}` : issue.message)).join("; ");
}
