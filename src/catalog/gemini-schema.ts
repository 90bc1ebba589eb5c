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

// Both bound inlining, which grows exponentially when each target references the next more than once
// (18 levels of two references each: 1.7 KB in, 15 MB out).
/** How many references may be open, one inside another; a `$ref` met inside that many is not followed. */
export const MAX_REF_DEPTH = 8;
/** How many nodes one schema may inline from `$ref` targets; a `$ref` met after that is not followed. */
export const MAX_INLINED_NODES = 1000;

const RECURSIVE_NOTE =
  "The shape of this value is not shown: it contains itself, which this format cannot express.";
const TOO_LARGE_NOTE =
  "The shape of this value is not shown: written out in full, it is too large for this format.";

export type GeminiSchema = { [keyword: string]: unknown };

/**
 * Converts a JSON Schema (draft 2020-12 or 07) to Gemini's OpenAPI subset: `$ref` inlined, `const` →
 * one-value `enum`, an untyped `enum` typed from its values, `[T, "null"]` and null `anyOf` branches →
 * `nullable`, `oneOf` → `anyOf`, `allOf` and a `$ref`'s siblings merged (see conjoin), exclusive bounds →
 * bounds, `examples` → `example`, and every keyword outside GEMINI_SCHEMA_KEYWORDS dropped.
 *
 * A `$ref` already being inlined (recursion), one MAX_REF_DEPTH references deep, or one met after
 * MAX_INLINED_NODES nodes have been inlined is not followed: it becomes a schema of any type that keeps its
 * siblings and says in its description that the shape is not shown. That bounds what inlining adds however
 * the references nest, and the same input always gives the same output. A schema that cannot be read throws
 * CatalogSchemaError: a `$ref` to nothing, to an anchor or outside the document, or `false`.
 */
export function toGeminiSchema(schema: JsonSchemaObject, where = "schema"): GeminiSchema {
  return new GeminiConverter(schema).convert(schema, [], where);
}

class GeminiConverter {
  readonly #root: JsonSchemaObject;
  #inlined = 0;

  constructor(root: JsonSchemaObject) {
    this.#root = root;
  }

  /** `refs` are the references being inlined around `node`, outermost first. */
  convert(node: unknown, refs: readonly string[], where: string): GeminiSchema {
    if (refs.length > 0) this.#inlined += 1;
    if (node === true || (isObject(node) && Object.keys(node).length === 0)) return {};
    if (!isObject(node)) {
      throw new CatalogSchemaError(`${where}: a schema that admits nothing cannot be sent`);
    }
    const { $ref: ref, ...siblings } = node;
    if (typeof ref === "string") return this.#reference(ref, siblings, refs, where);
    return this.#schema(node, refs, where);
  }

  #reference(
    ref: string,
    siblings: Record<string, unknown>,
    refs: readonly string[],
    where: string,
  ): GeminiSchema {
    const note = this.#cutNote(ref, refs);
    if (note !== undefined) return notShown(this.#schema(siblings, refs, where), note);
    const resolved = resolve(ref, this.#root, where);
    // Siblings are read as of the target's type (a `format`, an integer's exclusive bound) unless they name one.
    const targetType = this.#typeOf(resolved, [...refs, ref], where);
    const typed = siblings.type === undefined && targetType ? { type: targetType, ...siblings } : siblings;
    const own = this.#schema(typed, refs, where);
    const target = this.convert(resolved, [...refs, ref], where);
    // 2020-12 applies a `$ref` and its siblings together; the siblings, written for this use, come first.
    return conjoin(own, target);
  }

  /** The `type` a schema declares, through the references it is made of, as far as they may be followed. */
  #typeOf(node: JsonSchemaObject, refs: readonly string[], where: string): unknown {
    if (node.type !== undefined || typeof node.$ref !== "string") return node.type;
    if (this.#cutNote(node.$ref, refs) !== undefined) return undefined;
    return this.#typeOf(resolve(node.$ref, this.#root, where), [...refs, node.$ref], where);
  }

  /** Why `ref` is not followed here, or undefined to follow it. */
  #cutNote(ref: string, refs: readonly string[]): string | undefined {
    if (refs.includes(ref)) return RECURSIVE_NOTE;
    if (refs.length >= MAX_REF_DEPTH || this.#inlined >= MAX_INLINED_NODES) return TOO_LARGE_NOTE;
    return undefined;
  }

  /** A schema without `$ref`: its own keywords, then what `allOf` and a lone `anyOf` branch add. */
  #schema(node: Record<string, unknown>, refs: readonly string[], where: string): GeminiSchema {
    const out: GeminiSchema = {};
    // Conjoined after the node's own keywords, so that the result does not depend on key order.
    const parts: GeminiSchema[] = [];
    const rawType = node.type;
    // `[T, "null"]` is how JSON Schema says a nullable T: a format or an exclusive bound reads as T's.
    const valueType = singleType(rawType);
    for (const [keyword, value] of Object.entries(node)) {
      switch (keyword) {
        case "type":
          writeType(out, value);
          break;
        case "const":
          if (node.enum === undefined) writeEnum(out, [value], rawType !== undefined);
          break;
        case "enum":
          if (Array.isArray(value)) writeEnum(out, value, rawType !== undefined);
          break;
        case "properties":
          if (isObject(value)) {
            out.properties = Object.fromEntries(
              Object.entries(value).map(([name, child]) => [
                name,
                this.convert(child, refs, `${where}.properties.${name}`),
              ]),
            );
          }
          break;
        case "items":
          // A tuple (draft-07 `items: [...]`, or `prefixItems` beside 2020-12's `items`) has no equivalent;
          // its items are dropped.
          if (!Array.isArray(value) && !Array.isArray(node.prefixItems)) {
            out.items = this.convert(value, refs, `${where}.items`);
          }
          break;
        case "anyOf":
        case "oneOf":
          if (Array.isArray(value)) {
            const lone = this.#writeAnyOf(out, value, refs, `${where}.${keyword}`);
            if (lone) parts.push(lone);
          }
          break;
        case "allOf":
          if (Array.isArray(value)) {
            value.forEach((branch, index) => {
              parts.push(this.convert(branch, refs, `${where}.allOf[${index}]`));
            });
          }
          break;
        case "exclusiveMinimum":
        case "exclusiveMaximum":
          if (typeof value === "number") writeExclusive(out, keyword, value, valueType === "integer");
          break;
        case "minimum":
        case "maximum":
          // Beside an exclusive bound, in either order, the tighter of the two holds.
          if (typeof value === "number") writeBound(out, keyword, value);
          break;
        case "examples":
          if (Array.isArray(value) && value.length > 0) out.example = value[0];
          break;
        case "format":
          if (typeof value === "string" && valueType && FORMATS[valueType]?.includes(value)) {
            out.format = value;
          }
          break;
        default:
          if (GEMINI_SCHEMA_KEYWORDS.has(keyword)) out[keyword] = structuredClone(value);
      }
    }
    return parts.reduce(conjoin, stringEnumOnly(out));
  }

  /** Writes the branches that are not just null as `anyOf`; a lone one is returned, to be conjoined. */
  #writeAnyOf(
    out: GeminiSchema,
    branches: readonly unknown[],
    refs: readonly string[],
    where: string,
  ): GeminiSchema | undefined {
    const kept: GeminiSchema[] = [];
    branches.forEach((branch, index) => {
      const converted = this.convert(branch, refs, `${where}[${index}]`);
      const onlyNull = converted.nullable === true && Object.keys(converted).length === 1;
      if (onlyNull) out.nullable = true;
      else kept.push(converted);
    });
    if (kept.length > 1) out.anyOf = kept;
    return kept.length === 1 ? kept[0] : undefined;
  }
}

function writeType(out: GeminiSchema, value: unknown): void {
  if (value === "null" || (Array.isArray(value) && value.includes("null"))) out.nullable = true;
  const types = typesBesideNull(value);
  if (types.length === 1) out.type = types[0];
  else if (types.length > 1) out.anyOf = types.map((type) => ({ type }));
}

function writeEnum(out: GeminiSchema, values: readonly unknown[], typed: boolean): void {
  const present = values.filter((value) => value !== null);
  if (present.length < values.length) out.nullable = true;
  // Gemini refuses an enum without a type; compact schemas leave the type to the values.
  const inferred = typed ? undefined : typeOfValues(present);
  if (inferred !== undefined) out.type = inferred;
  // Gemini's enum holds strings only; a non-string enum keeps its type and loses the list.
  if (present.length > 0 && present.every((value) => typeof value === "string")) out.enum = present;
}

/**
 * The type every value has (`integer` when all are whole numbers); undefined for mixed values such as
 * `["a", 1]`, whose enum then converts to a schema of any type.
 */
function typeOfValues(values: readonly unknown[]): string | undefined {
  if (values.length === 0) return undefined;
  if (values.every((value) => typeof value === "string")) return "string";
  if (values.every((value) => typeof value === "boolean")) return "boolean";
  if (values.every((value) => Number.isInteger(value))) return "integer";
  if (values.every((value) => typeof value === "number")) return "number";
  return undefined;
}

/** The schema without its enum unless its type is string: Gemini allows an enum for STRING only. */
function stringEnumOnly(schema: GeminiSchema): GeminiSchema {
  if (schema.enum === undefined || schema.type === "string") return schema;
  const { enum: _enum, ...rest } = schema;
  return rest;
}

function writeExclusive(
  out: GeminiSchema,
  keyword: "exclusiveMinimum" | "exclusiveMaximum",
  bound: number,
  integer: boolean,
): void {
  // For integers the exclusive bound is exact as an inclusive one; for numbers it is the nearest expressible.
  if (keyword === "exclusiveMinimum") writeBound(out, "minimum", integer ? Math.floor(bound) + 1 : bound);
  else writeBound(out, "maximum", integer ? Math.ceil(bound) - 1 : bound);
}

/** Sets an inclusive bound unless a tighter one is already there. */
function writeBound(out: GeminiSchema, keyword: "minimum" | "maximum", bound: number): void {
  const current = out[keyword];
  if (typeof current !== "number" || (keyword === "minimum" ? current < bound : current > bound)) {
    out[keyword] = bound;
  }
}

/**
 * Two converted schemas that both apply (`allOf`, a `$ref` and its siblings): properties merged by name,
 * each shared one conjoined; `required` unioned; any other keyword as `first` says it, else as `second`
 * does. One side's constraint is looser than both together, never stricter, and the seam validates
 * against the full schema.
 */
function conjoin(first: GeminiSchema, second: GeminiSchema): GeminiSchema {
  const out: GeminiSchema = { ...first };
  for (const [keyword, value] of Object.entries(second)) {
    const current = out[keyword];
    if (current === undefined) out[keyword] = value;
    else if (keyword === "properties" && isObject(current) && isObject(value)) {
      out.properties = conjoinProperties(current, value);
    } else if (keyword === "required" && Array.isArray(current) && Array.isArray(value)) {
      out.required = [...new Set([...current, ...value])];
    }
  }
  return stringEnumOnly(out);
}

function conjoinProperties(
  first: Record<string, unknown>,
  second: Record<string, unknown>,
): Record<string, unknown> {
  const names = [...new Set([...Object.keys(first), ...Object.keys(second)])];
  return Object.fromEntries(
    names.map((name) => {
      // Own properties only: a property may be called `constructor`.
      const one = Object.hasOwn(first, name) ? first[name] : undefined;
      const other = Object.hasOwn(second, name) ? second[name] : undefined;
      if (isObject(one) && isObject(other)) return [name, conjoin(one, other)];
      return [name, one ?? other];
    }),
  );
}

/** What a `$ref` that is not followed becomes: its siblings, with a description saying why. */
function notShown(siblings: GeminiSchema, note: string): GeminiSchema {
  // The type goes with the shape it names: Gemini refuses OBJECT without properties, ARRAY without items.
  const { type, ...rest } = siblings;
  const kept = type === "object" || type === "array" ? rest : siblings;
  const description = typeof kept.description === "string" ? `${kept.description}\n${note}` : note;
  return { ...kept, description };
}

function resolve(ref: string, root: JsonSchemaObject, where: string): JsonSchemaObject {
  if (!ref.startsWith("#")) throw new CatalogSchemaError(`${where}: external $ref "${ref}" is not supported`);
  // `#name` names an anchor; read as a pointer it would be the root.
  if (ref !== "#" && !ref.startsWith("#/")) {
    throw new CatalogSchemaError(`${where}: anchor $ref "${ref}" is not supported`);
  }
  let target: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const segment = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    target = isObject(target) ? target[segment] : undefined;
  }
  if (!isObject(target)) throw new CatalogSchemaError(`${where}: $ref "${ref}" points at nothing`);
  return target;
}

/** The types a `type` keyword names, null aside. */
function typesBesideNull(value: unknown): string[] {
  if (typeof value === "string") return value === "null" ? [] : [value];
  if (!Array.isArray(value)) return [];
  return value.filter((type): type is string => typeof type === "string" && type !== "null");
}

/** The one type other than null a `type` names, if it names one. */
function singleType(value: unknown): string | undefined {
  const types = typesBesideNull(value);
  return types.length === 1 ? types[0] : undefined;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
