/**
 * @module Validates the fake's answers against Atlassian's published OpenAPI description of the Jira Cloud
 * platform REST API (swagger-v3.v3.json, Apache-2.0 per its info.license), trimmed to the operations the
 * toolkit calls by openapi/trim-spec.mjs. The operation is found by method and path template, the answer
 * by status, and its body checked with ajv. Jira documents most error statuses with no body schema, while
 * its REST intro says an error answers an ErrorCollection: such an answer is held to ErrorCollection. A
 * route or status the description does not have fails: the fake may not invent endpoints.
 */
import { readFileSync } from "node:fs";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";

type Schema = Record<string, unknown>;

interface OpenApiDocument {
  info: { version: string };
  paths: Record<
    string,
    Record<
      string,
      { operationId: string; responses: Record<string, { content?: Record<string, { schema?: Schema }> }> }
    >
  >;
  components: { schemas: Record<string, Schema> };
}

const description = JSON.parse(
  readFileSync(new URL("./openapi/jira-openapi.trimmed.json", import.meta.url), "utf8"),
) as OpenApiDocument;

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });
const compiled = new Map<string, ValidateFunction | null>();

/** Throws, naming the operation and each mismatched field, when Jira would never send this answer. */
export function checkAgainstOpenApi(method: string, routePath: string, status: number, body: unknown): void {
  const template = routePath.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
  const operation = description.paths[template]?.[method.toLowerCase()];
  if (!operation)
    throw new Error(`Jira documents no ${method.toUpperCase()} ${template}: the fake may not serve it`);
  const name = `${method.toUpperCase()} ${template} (${operation.operationId})`;
  const key = `${name} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    const response = operation.responses[String(status)];
    if (!response) {
      throw new Error(
        `Jira documents no ${status} answer from ${name} (it documents ${Object.keys(operation.responses).join(", ")})`,
      );
    }
    const schema =
      response.content?.["application/json"]?.schema ??
      (status >= 400 ? { $ref: "#/components/schemas/ErrorCollection" } : undefined);
    validate = schema ? ajv.compile({ ...(nullable(schema) as Schema), components: componentsOnce() }) : null;
    compiled.set(key, validate);
  }
  if (validate === null) {
    if (body !== undefined)
      throw new Error(`Jira documents no body for ${status} from ${name}, but the fake sent one`);
    return;
  }
  if (!validate(body)) {
    const reasons = [...new Set((validate.errors ?? []).map(describe))].slice(0, 6);
    throw new Error(
      `the fake's ${status} answer to ${name} does not match Jira's description: ${reasons.join("; ")}`,
    );
  }
}

let components: { schemas: Record<string, unknown> } | undefined;
/** The description's schemas beside each compiled answer, so `#/components/schemas/…` resolves in it. */
function componentsOnce() {
  components ??= {
    schemas: Object.fromEntries(
      Object.entries(description.components.schemas).map(([name, schema]) => [name, nullable(schema)]),
    ),
  };
  return components;
}

/** OpenAPI 3.0's `nullable: true` as JSON Schema's null type, everywhere in a schema. */
function nullable(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullable);
  if (typeof schema !== "object" || schema === null) return schema;
  const { nullable: isNullable, ...rest } = schema as Schema;
  const out = Object.fromEntries(Object.entries(rest).map(([keyword, value]) => [keyword, nullable(value)]));
  if (isNullable !== true) return out;
  return typeof out.type === "string"
    ? { ...out, type: [out.type, "null"] }
    : { anyOf: [{ type: "null" }, out] };
}

function describe(error: ErrorObject): string {
  const where = error.instancePath === "" ? "the body" : error.instancePath.slice(1).replaceAll("/", ".");
  const params = error.params as Record<string, unknown>;
  if (error.keyword === "additionalProperties")
    return `${where}.${String(params.additionalProperty)} is not a field Jira sends`;
  return `${where} ${error.message ?? "is invalid"}`;
}
