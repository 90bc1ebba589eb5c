/**
 * @module Validates the fake's answers against GitHub's official OpenAPI description (@octokit/openapi,
 * OpenAPI 3.0.3). The operation is found by method and path template, the response by status, and the body
 * is checked with ajv. A route or a status GitHub does not document fails too: the fake may not invent
 * endpoints. Each operation is compiled on its first answer and cached; the description is 13 MB.
 */
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import type { ResponseCheck } from "./github-fake.js";
import { githubDescription } from "./payloads.js";

type Schema = Record<string, unknown>;

interface MediaType {
  schema?: Schema;
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, MediaType>;
}

interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}

interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema>; responses: Record<string, ResponseObject> };
}

interface Documented {
  method: string;
  template: string;
  operation: Operation;
}

/** The base the description's `#/components/schemas/…` references are made absolute against. */
const DOCUMENT_ID = "https://api.github.com/openapi.json";

/** The most mismatches one failure names; one wrong type deep in a list can otherwise repeat per item. */
const MAX_REASONS = 8;

let state: { ajv: Ajv; operations: Map<string, Documented[]> } | undefined;
const compiled = new Map<string, ValidateFunction | null>();

/** Throws, naming the operation and each mismatched field, when GitHub would never send this answer. */
export const checkAgainstOpenApi: ResponseCheck = (method, routePath, status, body) => {
  const documented = findOperation(method, routePath);
  const name = `${documented.method.toUpperCase()} ${documented.template} (${documented.operation.operationId ?? "no operationId"})`;
  const key = `${name} ${status}`;
  let validate = compiled.get(key);
  if (validate === undefined) {
    validate = compileResponse(documented, status, name);
    compiled.set(key, validate);
  }
  if (validate === null) {
    if (body !== undefined && body !== null) {
      throw new Error(`GitHub documents no JSON body for ${status} from ${name}, but the fake sent one`);
    }
    return;
  }
  if (!validate(body)) {
    const reasons = [...new Set((validate.errors ?? []).map(describeError))].slice(0, MAX_REASONS);
    throw new Error(
      `the fake's ${status} answer to ${name} does not match GitHub's description: ${reasons.join("; ")}`,
    );
  }
};

/** The description, with every schema it references adapted and registered once (lazily: it is large). */
function loaded() {
  if (state) return state;
  const description = githubDescription() as unknown as OpenApiDocument;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, logger: false });
  const schemas = Object.fromEntries(
    Object.entries(description.components.schemas).map(([name, schema]) => [name, adapt(schema)]),
  );
  ajv.addSchema({ $id: DOCUMENT_ID, components: { schemas } }, undefined, undefined, false);
  const operations = new Map<string, Documented[]>();
  for (const [template, item] of Object.entries(description.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      if (typeof operation !== "object" || operation === null || !("responses" in operation)) continue;
      const key = `${method} ${shapeOf(template)}`;
      operations.set(key, [...(operations.get(key) ?? []), { method, template, operation }]);
    }
  }
  state = { ajv, operations };
  return state;
}

function findOperation(method: string, routePath: string): Documented {
  const template = templateOfRoute(routePath);
  const candidates = loaded().operations.get(`${method.toLowerCase()} ${shapeOf(template)}`) ?? [];
  // Two templates can share a shape (`attestations/{subject_digest}` and `/{attestation_id}`): the names decide.
  const found =
    candidates.length === 1 ? candidates[0] : candidates.find((each) => each.template === template);
  if (!found) {
    throw new Error(
      candidates.length === 0
        ? `GitHub documents no ${method.toUpperCase()} ${template} (fake route ${routePath}): the fake may not serve an endpoint GitHub does not have`
        : `the fake route ${routePath} could be ${candidates.map((each) => each.template).join(" or ")}; name its parameters as GitHub does`,
    );
  }
  return found;
}

/** The validator for one documented answer; null when GitHub documents that answer with no JSON body. */
function compileResponse({ operation }: Documented, status: number, name: string): ValidateFunction | null {
  const { ajv } = loaded();
  const responses = operation.responses ?? {};
  const response = responses[String(status)];
  if (!response) {
    throw new Error(
      `GitHub documents no ${status} answer from ${name} (it documents ${Object.keys(responses).join(", ")})`,
    );
  }
  const content = resolveResponse(response).content ?? {};
  const media =
    content["application/json"] ?? Object.entries(content).find(([type]) => /[/+]json$/.test(type))?.[1];
  if (!media) {
    const types = Object.keys(content);
    if (types.length > 0) {
      throw new Error(`GitHub answers ${status} from ${name} as ${types.join(" or ")}, not JSON`);
    }
    return null;
  }
  return ajv.compile(media.schema ? (adapt(media.schema) as Schema) : {});
}

function resolveResponse(response: ResponseObject): ResponseObject {
  if (!response.$ref) return response;
  const name = response.$ref.replace("#/components/responses/", "");
  const found = (githubDescription() as unknown as OpenApiDocument).components.responses[name];
  if (!found) throw new Error(`GitHub's description references a missing response ${response.$ref}`);
  return found;
}

/**
 * An OpenAPI 3.0 schema as the JSON Schema ajv validates. `nullable: true` becomes a `null` type (and a
 * `null` in its enum: 3.0.3 says nullable admits null, and GitHub sends `state_reason: null` against enums
 * that do not list it). `oneOf` becomes `anyOf`: GitHub's branches overlap (validation-error's `value` is
 * null in all three), so "exactly one" would refuse what GitHub sends. References become absolute, so a
 * schema compiles on its own against the registered components. Unknown keywords (`x-github`) are left.
 */
function adapt(schema: unknown): unknown {
  if (typeof schema !== "object" || schema === null) return schema;
  const { nullable, oneOf, $ref, ...rest } = schema as Schema;
  const out: Schema = {};
  for (const [keyword, value] of Object.entries(rest)) out[keyword] = adaptKeyword(keyword, value);
  if (typeof $ref === "string") out.$ref = $ref.startsWith("#") ? `${DOCUMENT_ID}${$ref}` : $ref;
  if (Array.isArray(oneOf)) {
    const branches = { anyOf: oneOf.map(adapt) };
    if (out.anyOf) out.allOf = [...((out.allOf as unknown[]) ?? []), branches];
    else out.anyOf = branches.anyOf;
  }
  return nullable === true ? allowNull(out) : out;
}

function adaptKeyword(keyword: string, value: unknown): unknown {
  switch (keyword) {
    case "properties":
      return Object.fromEntries(Object.entries(value as Schema).map(([name, each]) => [name, adapt(each)]));
    case "items":
    case "additionalProperties":
    case "not":
      return adapt(value);
    case "allOf":
    case "anyOf":
      return (value as unknown[]).map(adapt);
    default:
      return value;
  }
}

function allowNull(schema: Schema): Schema {
  if (typeof schema.type !== "string") return { anyOf: [{ type: "null" }, schema] };
  const enumValues =
    Array.isArray(schema.enum) && !schema.enum.includes(null) ? [...schema.enum, null] : schema.enum;
  return { ...schema, type: [schema.type, "null"], ...(enumValues ? { enum: enumValues } : {}) };
}

/** Hono's `/repos/:owner/:repo/contents/:path{.+}` as OpenAPI's `/repos/{owner}/{repo}/contents/{path}`. */
function templateOfRoute(routePath: string): string {
  return routePath
    .replace(/:([A-Za-z0-9_]+)(?:\{(?:[^{}]|\{[^{}]*\})*\})?\??/g, "{$1}")
    .replace(/(^|\/)\*(?=\/|$)/g, "$1{*}");
}

/** A template with its parameters unnamed: a route matches a template whatever it calls the parameters. */
function shapeOf(template: string): string {
  return template
    .split("/")
    .map((segment) => (segment.includes("{") ? "{}" : segment))
    .join("/");
}

function describeError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "required":
      return `${fieldOf(error.instancePath, params.missingProperty)} is required but missing`;
    case "additionalProperties":
      return `${fieldOf(error.instancePath, params.additionalProperty)} is not a field GitHub sends here`;
    case "enum":
      return `${fieldOf(error.instancePath)} must be one of ${JSON.stringify(params.allowedValues)}`;
    default:
      return `${fieldOf(error.instancePath)} ${error.message ?? "is invalid"}`;
  }
}

/** A JSON pointer as a field path a person reads: `/items/0/user/login` → `items[0].user.login`. */
function fieldOf(pointer: string, child?: unknown): string {
  const parts = pointer
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  if (child !== undefined) parts.push(String(child));
  const path = parts
    .map((part, index) => (/^\d+$/.test(part) ? `[${part}]` : index === 0 ? part : `.${part}`))
    .join("");
  return path === "" ? "the body" : path;
}
