import { describe, expect, it } from "vitest";
import { defaultCatalogue } from "../tools/catalogue.js";
import { CatalogSchemaError } from "./catalog-schema-error.js";
import { renderGeminiTools } from "./gemini.js";
import { GEMINI_SCHEMA_KEYWORDS, type GeminiSchema, toGeminiSchema } from "./gemini-schema.js";

/** Every keyword in schema positions (not property names) that Gemini's subset does not accept. */
function unsupportedKeywords(schema: unknown, path = "$"): string[] {
  if (typeof schema !== "object" || schema === null) return [];
  const found: string[] = [];
  for (const [keyword, value] of Object.entries(schema)) {
    if (!GEMINI_SCHEMA_KEYWORDS.has(keyword)) found.push(`${path}.${keyword}`);
    if (keyword === "properties") {
      for (const [name, child] of Object.entries(value as object)) {
        found.push(...unsupportedKeywords(child, `${path}.properties.${name}`));
      }
    } else if (keyword === "items") {
      found.push(...unsupportedKeywords(value, `${path}.items`));
    } else if (keyword === "anyOf") {
      (value as unknown[]).forEach((branch, i) => {
        found.push(...unsupportedKeywords(branch, `${path}.anyOf[${i}]`));
      });
    }
  }
  return found;
}

describe("toGeminiSchema on the shipped catalogue", () => {
  const tools = defaultCatalogue().tools;
  const declarations = renderGeminiTools(tools, { form: "openapi" }).functionDeclarations;

  it.each(tools.map((tool, index) => [tool.name, index] as const))(
    "%s converts with no unsupported keyword",
    (name, index) => {
      const declaration = declarations[index]!;
      expect(declaration.name).toBe(name);
      expect(declaration.parametersJsonSchema).toBeUndefined();
      expect(unsupportedKeywords(declaration.parameters)).toEqual([]);
      const text = JSON.stringify(declaration.parameters ?? {});
      for (const banned of ["$schema", "$ref", "$defs", "additionalProperties", "propertyNames", "const"]) {
        expect(text).not.toContain(`"${banned}"`);
      }
    },
  );

  it("keeps every property, required name and description of every tool", () => {
    tools.forEach((tool, index) => {
      const source = tool.inputJsonSchema as { properties?: object; required?: string[] };
      const converted = declarations[index]!.parameters as GeminiSchema | undefined;
      expect(Object.keys((converted?.properties as object) ?? {})).toEqual(
        Object.keys(source.properties ?? {}),
      );
      expect(converted?.required).toEqual(source.required);
    });
  });

  it("turns a null branch of anyOf into nullable", () => {
    const sqlQuery = declarations.find((declaration) => declaration.name === "sql_query")!;
    const params = (sqlQuery.parameters!.properties as Record<string, GeminiSchema>).params!;
    expect(params.items).toEqual({
      anyOf: [{ type: "string", maxLength: 10000 }, { type: "number" }, { type: "boolean" }],
      nullable: true,
    });
  });
});

describe("toGeminiSchema rewrites", () => {
  it("inlines $ref from $defs and drops $defs and $schema", () => {
    const converted = toGeminiSchema({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.com/x",
      type: "object",
      $defs: { point: { type: "object", properties: { x: { type: "number" } }, required: ["x"] } },
      properties: { a: { $ref: "#/$defs/point", description: "first" }, b: { $ref: "#/$defs/point" } },
    });
    const point = { type: "object", properties: { x: { type: "number" } }, required: ["x"] };
    expect(converted).toEqual({
      type: "object",
      properties: { a: { ...point, description: "first" }, b: point },
    });
  });

  it("inlines draft-07 definitions", () => {
    const converted = toGeminiSchema({
      definitions: { name: { type: "string" } },
      type: "object",
      properties: { n: { $ref: "#/definitions/name" } },
    });
    expect(converted.properties).toEqual({ n: { type: "string" } });
  });

  it("refuses a recursive $ref, naming the cycle", () => {
    const tree = {
      type: "object",
      $defs: {
        node: {
          type: "object",
          properties: { children: { type: "array", items: { $ref: "#/$defs/node" } } },
        },
      },
      properties: { root: { $ref: "#/$defs/node" } },
    };
    expect(() => toGeminiSchema(tree, "make_tree")).toThrow(CatalogSchemaError);
    expect(() => toGeminiSchema(tree, "make_tree")).toThrow(
      /make_tree.*recursive \$ref #\/\$defs\/node → #\/\$defs\/node/,
    );
    expect(() => toGeminiSchema({ properties: { self: { $ref: "#" } } })).toThrow(/recursive/);
  });

  it("refuses a $ref that points at nothing or outside the document", () => {
    expect(() => toGeminiSchema({ properties: { a: { $ref: "#/$defs/missing" } } })).toThrow(
      /points at nothing/,
    );
    expect(() => toGeminiSchema({ properties: { a: { $ref: "other.json#/x" } } })).toThrow(/external/);
  });

  it("turns const into a one-value enum and type [T, null] into nullable", () => {
    expect(toGeminiSchema({ const: "on" })).toEqual({ enum: ["on"] });
    expect(toGeminiSchema({ type: ["string", "null"], maxLength: 3 })).toEqual({
      type: "string",
      nullable: true,
      maxLength: 3,
    });
    expect(toGeminiSchema({ type: ["string", "integer"] })).toEqual({
      anyOf: [{ type: "string" }, { type: "integer" }],
    });
    expect(toGeminiSchema({ type: "string", enum: ["a", null] })).toEqual({
      type: "string",
      enum: ["a"],
      nullable: true,
    });
  });

  it("collapses a single non-null anyOf branch and keeps the outer description", () => {
    expect(
      toGeminiSchema({
        description: "maybe a date",
        anyOf: [{ type: "string", description: "x" }, { type: "null" }],
      }),
    ).toEqual({
      description: "maybe a date",
      type: "string",
      nullable: true,
    });
  });

  it("rewrites oneOf, allOf, exclusive bounds and examples; drops unsupported keywords and formats", () => {
    expect(toGeminiSchema({ oneOf: [{ type: "string" }, { type: "number" }] })).toEqual({
      anyOf: [{ type: "string" }, { type: "number" }],
    });
    expect(
      toGeminiSchema({
        allOf: [
          { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
          { properties: { b: { type: "string" } }, required: ["b"] },
        ],
      }),
    ).toEqual({
      type: "object",
      properties: { a: { type: "string" }, b: { type: "string" } },
      required: ["a", "b"],
    });
    expect(toGeminiSchema({ type: "integer", exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({
      type: "integer",
      minimum: 1,
      maximum: 9,
    });
    expect(toGeminiSchema({ type: "number", exclusiveMinimum: 0.5 })).toEqual({
      type: "number",
      minimum: 0.5,
    });
    expect(toGeminiSchema({ type: "string", examples: ["a", "b"], format: "uri" })).toEqual({
      type: "string",
      example: "a",
    });
    expect(toGeminiSchema({ type: "string", format: "date-time" })).toEqual({
      type: "string",
      format: "date-time",
    });
    expect(
      toGeminiSchema({
        type: "object",
        additionalProperties: { type: "string" },
        propertyNames: { maxLength: 3 },
        patternProperties: {},
        $comment: "x",
        not: {},
        uniqueItems: true,
      }),
    ).toEqual({ type: "object" });
  });
});
