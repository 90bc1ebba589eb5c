/**
 * @module An upstream input schema as toolreg declares it. Everything in it reaches a model beside the
 * fenced tool description. Its prose (descriptions, titles, and whatever text sits in annotations that
 * only inform a reader: examples, defaults, comments, unknown keywords) loses what text can do to a
 * prompt — chat-template markers, role lines, headings, fence tags — and keeps what it says. The strings
 * that must reach the upstream exactly as a model sends them (allowed values, property names) cannot be
 * changed, so a schema whose exact strings read as instructions is refused, and the tool withheld.
 */
import type { JsonSchemaObject } from "../../declaration/json-schema-validator.js";
import { neutralise, readsAsInstructions } from "../../seam/untrusted-fence.js";

/** Keywords whose value maps names to schemas: the names are data, each value a schema. */
const SCHEMA_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"]);
/** Keywords whose value is a schema, or a list of schemas. */
const SCHEMA_ELEMENTS = new Set([
  "allOf",
  "anyOf",
  "oneOf",
  "prefixItems",
  "items",
  "additionalItems",
  "additionalProperties",
  "unevaluatedProperties",
  "unevaluatedItems",
  "propertyNames",
  "contains",
  "not",
  "if",
  "then",
  "else",
]);
/**
 * Keywords whose strings must stay exactly as they are, since validation or the upstream reads them: names,
 * allowed values, and the strings a validator interprets.
 */
const EXACT = new Set([
  "enum",
  "const",
  "required",
  "dependentRequired",
  "pattern",
  "format",
  "contentEncoding",
  "contentMediaType",
]);
/** Keywords that shape validation or address a schema; copied as they are. */
const STRUCTURAL = new Set([
  "type",
  "$ref",
  "$dynamicRef",
  "$recursiveRef",
  "$recursiveAnchor",
  "$id",
  "id",
  "$schema",
  "$anchor",
  "$dynamicAnchor",
  "$vocabulary",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "multipleOf",
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "uniqueItems",
  "minContains",
  "maxContains",
  "minProperties",
  "maxProperties",
  "readOnly",
  "writeOnly",
  "deprecated",
]);

/** The schema, its prose neutralised with `nonce`; throws naming what reads as instructions where text must stay. */
export function neutralisedSchema(schema: unknown, nonce: string): JsonSchemaObject {
  return new SchemaNeutraliser(nonce).schema(schema, "the input schema") as JsonSchemaObject;
}

class SchemaNeutraliser {
  readonly #nonce: string;

  constructor(nonce: string) {
    this.#nonce = nonce;
  }

  schema(value: unknown, where: string): unknown {
    if (Array.isArray(value)) return value.map((item, index) => this.schema(item, `${where}[${index}]`));
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([keyword, item]) => this.#keyword(keyword, item, where)),
    );
  }

  /** One keyword of a schema and its value, as toolreg declares them. */
  #keyword(keyword: string, value: unknown, where: string): [string, unknown] {
    return [
      SCHEMA_MAPS.has(keyword) ||
      SCHEMA_ELEMENTS.has(keyword) ||
      EXACT.has(keyword) ||
      STRUCTURAL.has(keyword) ||
      keyword === "dependencies"
        ? keyword
        : // A keyword no validator reads is text for a reader, its name included.
          neutralise(keyword, this.#nonce),
      this.#value(keyword, value, where),
    ];
  }

  #value(keyword: string, value: unknown, where: string): unknown {
    if (SCHEMA_MAPS.has(keyword) && isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([name, schema]) => {
          this.#exact(name, `a name in ${keyword} of ${where}`);
          return [name, this.schema(schema, `${where}.${keyword}.${name}`)];
        }),
      );
    }
    if (SCHEMA_ELEMENTS.has(keyword)) return this.schema(value, `${where}.${keyword}`);
    // Draft 7: each property's dependency is a list of names or a schema.
    if (keyword === "dependencies" && isObject(value)) {
      return Object.fromEntries(
        Object.entries(value).map(([name, dependency]) => {
          this.#exact(name, `a name in dependencies of ${where}`);
          if (Array.isArray(dependency)) this.#exact(dependency, `dependencies of ${where}`);
          return [
            name,
            Array.isArray(dependency) ? dependency : this.schema(dependency, `${where}.dependencies.${name}`),
          ];
        }),
      );
    }
    if (EXACT.has(keyword)) {
      this.#exact(value, `${keyword} of ${where}`);
      return value;
    }
    if (STRUCTURAL.has(keyword)) return value;
    // description, title, examples, default, $comment and keywords nobody validates: text for a reader.
    return this.#prose(value);
  }

  #prose(value: unknown): unknown {
    if (typeof value === "string") return neutralise(value, this.#nonce);
    if (Array.isArray(value)) return value.map((item) => this.#prose(item));
    if (!isObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [neutralise(key, this.#nonce), this.#prose(item)]),
    );
  }

  #exact(value: unknown, where: string): void {
    if (typeof value === "string") {
      if (readsAsInstructions(value)) {
        throw new Error(
          `${where} holds text that reads as instructions to a model (${JSON.stringify(value.slice(0, 80))}), which toolreg cannot neutralise without changing what the upstream accepts`,
        );
      }
      return;
    }
    if (Array.isArray(value)) {
      for (const item of value) this.#exact(item, where);
    } else if (isObject(value)) {
      for (const [key, item] of Object.entries(value)) {
        this.#exact(key, where);
        this.#exact(item, where);
      }
    }
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
