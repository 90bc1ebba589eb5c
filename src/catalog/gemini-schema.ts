/** @module Down-converts JSON Schema to the OpenAPI-subset `Schema` of Gemini's `parameters` field. */
import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import { CatalogSchemaError } from "./catalog-schema-error.js";

/** Every keyword Gemini's OpenAPI-subset `Schema` accepts; the converter writes no other. */
export const GEMINI_SCHEMA_KEYWORDS: ReadonlySet<string> = new Set([
  "type",
  "format",
  "title",
  "description",
  "nullable",
  "enum",
  "maxItems",
  "minItems",
  "properties",
  "required",
  "minProperties",
  "maxProperties",
  "minLength",
  "maxLength",
  "pattern",
  "example",
  "anyOf",
  "propertyOrdering",
  "default",
  "items",
  "minimum",
  "maximum",
]);

/** Formats Gemini honours, per type; any other `format` is dropped. */
const FORMATS: Record<string, readonly string[]> = {
  string: ["enum", "date-time"],
  number: ["float", "double"],
  integer: ["int32", "int64"],
};

export type GeminiSchema = { [keyword: string]: unknown };

/**
 * Converts a JSON Schema (draft 2020-12 or 07) to Gemini's OpenAPI subset: `$ref` inlined (a cycle
 * throws CatalogSchemaError), `const` → one-value `enum`, `[T, "null"]` and null `anyOf` branches →
 * `nullable`, `oneOf` → `anyOf`, `allOf` merged, `exclusiveMinimum`/`exclusiveMaximum` → bounds,
 * `examples` → `example`, and every keyword outside GEMINI_SCHEMA_KEYWORDS dropped.
 */
export function toGeminiSchema(schema: JsonSchemaObject, where = "schema"): GeminiSchema {
  return convert(schema, schema, [], where);
}

function convert(
  node: unknown,
  root: JsonSchemaObject,
  refs: readonly string[],
  where: string,
): GeminiSchema {
  if (node === true || (isObject(node) && Object.keys(node).length === 0)) return {};
  if (!isObject(node)) throw new CatalogSchemaError(`${where}: a schema that admits nothing cannot be sent`);

  const ref = node.$ref;
  if (typeof ref === "string") {
    if (refs.includes(ref)) {
      throw new CatalogSchemaError(
        `${where}: recursive $ref ${[...refs, ref].join(" → ")} cannot be inlined for Gemini's parameters`,
      );
    }
    const { $ref: _ref, ...siblings } = node;
    return convert({ ...resolve(ref, root, where), ...siblings }, root, [...refs, ref], where);
  }

  const out: GeminiSchema = {};
  const rawType = node.type;
  for (const [keyword, value] of Object.entries(node)) {
    switch (keyword) {
      case "type":
        writeType(out, value);
        break;
      case "const":
        if (node.enum === undefined) writeEnum(out, [value]);
        break;
      case "enum":
        if (Array.isArray(value)) writeEnum(out, value);
        break;
      case "properties":
        if (isObject(value)) {
          out.properties = Object.fromEntries(
            Object.entries(value).map(([name, child]) => [
              name,
              convert(child, root, refs, `${where}.properties.${name}`),
            ]),
          );
        }
        break;
      case "items":
        // A draft-07 tuple (`items: [...]`) has no equivalent; it is dropped.
        if (!Array.isArray(value)) out.items = convert(value, root, refs, `${where}.items`);
        break;
      case "anyOf":
      case "oneOf":
        if (Array.isArray(value)) writeAnyOf(out, value, root, refs, `${where}.${keyword}`);
        break;
      case "allOf":
        if (Array.isArray(value)) {
          value.forEach((branch, index) => {
            mergeInto(out, convert(branch, root, refs, `${where}.allOf[${index}]`));
          });
        }
        break;
      case "exclusiveMinimum":
      case "exclusiveMaximum":
        if (typeof value === "number") writeExclusive(out, keyword, value, rawType === "integer");
        break;
      case "examples":
        if (Array.isArray(value) && value.length > 0) out.example = value[0];
        break;
      case "format":
        if (typeof value === "string" && typeof rawType === "string" && FORMATS[rawType]?.includes(value)) {
          out.format = value;
        }
        break;
      default:
        if (GEMINI_SCHEMA_KEYWORDS.has(keyword)) out[keyword] = structuredClone(value);
    }
  }
  return out;
}

function writeType(out: GeminiSchema, value: unknown): void {
  if (typeof value === "string") {
    if (value === "null") out.nullable = true;
    else out.type = value;
    return;
  }
  if (!Array.isArray(value)) return;
  const types = value.filter((type): type is string => typeof type === "string" && type !== "null");
  if (types.length < value.length) out.nullable = true;
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
}

function writeEnum(out: GeminiSchema, values: readonly unknown[]): void {
  const present = values.filter((value) => value !== null);
  if (present.length < values.length) out.nullable = true;
  // Gemini's enum holds strings only; a non-string enum keeps its type and loses the list.
  if (present.length > 0 && present.every((value) => typeof value === "string")) out.enum = present;
}

function writeAnyOf(
  out: GeminiSchema,
  branches: readonly unknown[],
  root: JsonSchemaObject,
  refs: readonly string[],
  where: string,
): void {
  const kept: GeminiSchema[] = [];
  branches.forEach((branch, index) => {
    const converted = convert(branch, root, refs, `${where}[${index}]`);
    const onlyNull = converted.nullable === true && Object.keys(converted).length === 1;
    if (onlyNull) out.nullable = true;
    else kept.push(converted);
  });
  if (kept.length === 1 && kept[0]) mergeInto(out, kept[0]);
  else if (kept.length > 1) out.anyOf = kept;
}

function writeExclusive(
  out: GeminiSchema,
  keyword: "exclusiveMinimum" | "exclusiveMaximum",
  bound: number,
  integer: boolean,
): void {
  // For integers the exclusive bound is exact as an inclusive one; for numbers it is the nearest expressible.
  if (keyword === "exclusiveMinimum") {
    const minimum = integer ? Math.floor(bound) + 1 : bound;
    if (typeof out.minimum !== "number" || out.minimum < minimum) out.minimum = minimum;
  } else {
    const maximum = integer ? Math.ceil(bound) - 1 : bound;
    if (typeof out.maximum !== "number" || out.maximum > maximum) out.maximum = maximum;
  }
}

/** Merges one converted schema into another: properties joined, required unioned, the rest overwritten. */
function mergeInto(out: GeminiSchema, extra: GeminiSchema): void {
  for (const [keyword, value] of Object.entries(extra)) {
    const current = out[keyword];
    if (keyword === "properties" && isObject(current) && isObject(value)) {
      out.properties = { ...current, ...value };
    } else if (keyword === "required" && Array.isArray(current) && Array.isArray(value)) {
      out.required = [...new Set([...current, ...value])];
    } else if (keyword === "description" && typeof current === "string") {
      // The outer description (the one next to the anyOf) is the one written for this field.
    } else {
      out[keyword] = value;
    }
  }
}

function resolve(ref: string, root: JsonSchemaObject, where: string): JsonSchemaObject {
  if (!ref.startsWith("#")) throw new CatalogSchemaError(`${where}: external $ref "${ref}" is not supported`);
  let target: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    target = isObject(target) ? target[segment] : undefined;
  }
  if (!isObject(target)) throw new CatalogSchemaError(`${where}: $ref "${ref}" points at nothing`);
  return target;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
