import { describe, expect, it } from "vitest";
import { defaultCatalogue } from "../check/default-catalogue.js";
import { defineTool } from "../declaration/define-tool.js";
import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import { compactSchema } from "./budget/compact-tool.js";
import { CatalogSchemaError } from "./catalog-schema-error.js";
import { PARAMETERS_NOT_SHOWN, renderGeminiTools } from "./gemini.js";
import {
  GEMINI_SCHEMA_KEYWORDS,
  type GeminiSchema,
  MAX_INLINED_NODES,
  MAX_REF_DEPTH,
  toGeminiSchema,
} from "./gemini-schema.js";
import { renderTools } from "./render-catalog.js";

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

/** Every schema node of a converted schema: itself, its properties, items and anyOf branches, deeply. */
function schemaNodes(schema: unknown): GeminiSchema[] {
  if (typeof schema !== "object" || schema === null) return [];
  const node = schema as GeminiSchema;
  const children = [
    ...Object.values((node.properties as object | undefined) ?? {}),
    ...(node.items === undefined ? [] : [node.items]),
    ...((node.anyOf as unknown[] | undefined) ?? []),
  ];
  return [node, ...children.flatMap(schemaNodes)];
}

function jsonTool(name: string, input: JsonSchemaObject) {
  return defineTool({
    name,
    description: `does ${name}`,
    category: "general",
    effect: "read",
    input,
    run: () => "ok",
  });
}

/** `$defs` d0…dN where each d(i) holds two references to d(i-1): 2^N nodes when inlined in full. */
function doublingChain(depth: number): JsonSchemaObject {
  const $defs: Record<string, unknown> = { d0: { type: "string" } };
  for (let i = 1; i <= depth; i++) {
    $defs[`d${i}`] = {
      type: "object",
      properties: { a: { $ref: `#/$defs/d${i - 1}` }, b: { $ref: `#/$defs/d${i - 1}` } },
    };
  }
  return { type: "object", $defs, properties: { x: { $ref: `#/$defs/d${depth}` } } };
}

const recursiveNote = expect.stringMatching(/^The shape of this value is not shown: it contains itself/);
const tooLargeNote = expect.stringMatching(/^The shape of this value is not shown: .* too large/);

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

  it("cuts a recursive $ref to a schema of any type that says why, instead of refusing it", () => {
    const tree = {
      type: "object",
      $defs: {
        node: {
          type: "object",
          properties: {
            children: {
              type: "array",
              items: { $ref: "#/$defs/node", type: "object", description: "a child" },
            },
          },
        },
      },
      properties: { root: { $ref: "#/$defs/node" } },
    };
    expect(toGeminiSchema(tree, "make_tree")).toEqual({
      type: "object",
      properties: {
        root: {
          type: "object",
          properties: {
            children: {
              type: "array",
              // The sibling description stays; `type: object` goes, as Gemini refuses one without properties.
              items: {
                description: expect.stringMatching(
                  /^a child\nThe shape of this value is not shown: it contains itself/,
                ),
              },
            },
          },
        },
      },
    });
    expect(toGeminiSchema({ properties: { self: { $ref: "#" } } })).toEqual({
      properties: { self: { properties: { self: { description: recursiveNote } } } },
    });
  });

  it("follows MAX_REF_DEPTH nested references and cuts the next one", () => {
    /** x → d(length) → … → d0: `length` arrays, each referencing the next, around a string. */
    const chain = (length: number): GeminiSchema => {
      const $defs: Record<string, unknown> = { d0: { type: "string" } };
      for (let i = 1; i <= length; i++) {
        $defs[`d${i}`] = { type: "array", items: { $ref: `#/$defs/d${i - 1}` } };
      }
      const converted = toGeminiSchema({ $defs, properties: { x: { $ref: `#/$defs/d${length}` } } });
      return (converted.properties as Record<string, GeminiSchema>).x!;
    };
    const innermost = (schema: GeminiSchema): GeminiSchema =>
      schema.items ? innermost(schema.items as GeminiSchema) : schema;
    const depth = (schema: GeminiSchema): number =>
      schema.items ? 1 + depth(schema.items as GeminiSchema) : 0;

    // MAX_REF_DEPTH references in all, d(MAX_REF_DEPTH - 1) … d0: inlined in full.
    expect(depth(chain(MAX_REF_DEPTH - 1))).toBe(MAX_REF_DEPTH - 1);
    expect(innermost(chain(MAX_REF_DEPTH - 1))).toEqual({ type: "string" });
    // One more: the last is cut, and so is every further one.
    for (const length of [MAX_REF_DEPTH, MAX_REF_DEPTH + 5]) {
      expect(depth(chain(length))).toBe(MAX_REF_DEPTH);
      expect(innermost(chain(length))).toEqual({ description: tooLargeNote });
    }
  });

  it("stops following $ref once MAX_INLINED_NODES nodes are inlined, the same way every time", () => {
    const leaf = {
      type: "object",
      properties: { a: { type: "string" }, b: { type: "number" } },
      required: ["a"],
    };
    // Each reference inlines 3 nodes, so about a third of them are followed.
    const count = MAX_INLINED_NODES;
    const names = Array.from({ length: count }, (_, index) => `p${index}`);
    const schema = {
      type: "object",
      $defs: { leaf },
      properties: Object.fromEntries(names.map((name) => [name, { $ref: "#/$defs/leaf" }])),
    };
    const properties = toGeminiSchema(schema).properties as Record<string, GeminiSchema>;
    const cut = names.filter((name) => properties[name]!.properties === undefined);

    expect(properties.p0).toEqual(leaf);
    expect(cut.length).toBe(count - Math.ceil(MAX_INLINED_NODES / 3));
    // Cut in document order: every property after the first cut one is cut too.
    expect(cut[0]).toBe(names[names.length - cut.length]);
    expect(properties[cut[0]!]).toEqual({ description: tooLargeNote });
    expect(JSON.stringify(toGeminiSchema(schema))).toBe(JSON.stringify(toGeminiSchema(schema)));
  });

  it("bounds a chain of $defs that doubles at each level (2^16 nodes in full)", () => {
    const converted = JSON.stringify(toGeminiSchema(doublingChain(16)));
    expect(converted.length).toBeLessThan(100_000);
    expect(converted).toContain("too large for this format");
    expect(JSON.stringify(toGeminiSchema(doublingChain(16)))).toBe(converted);
  });

  it("refuses a $ref that points at nothing or outside the document", () => {
    expect(() => toGeminiSchema({ properties: { a: { $ref: "#/$defs/missing" } } })).toThrow(
      /points at nothing/,
    );
    expect(() => toGeminiSchema({ properties: { a: { $ref: "other.json#/x" } } })).toThrow(/external/);
  });

  it("refuses an anchor $ref rather than reading it as a pointer to the root", () => {
    const anchored = {
      $defs: { n: { $anchor: "num", type: "number" } },
      properties: { a: { $ref: "#num" } },
    };
    expect(() => toGeminiSchema(anchored)).toThrow(CatalogSchemaError);
    expect(() => toGeminiSchema(anchored)).toThrow(/anchor \$ref "#num" is not supported/);
  });

  it("drops a tuple's items, including 2020-12's items: false after prefixItems", () => {
    expect(
      toGeminiSchema({
        type: "array",
        prefixItems: [{ type: "string" }, { type: "number" }],
        items: false,
        minItems: 2,
        maxItems: 2,
      }),
    ).toEqual({ type: "array", minItems: 2, maxItems: 2 });
    expect(() => toGeminiSchema({ type: "array", items: false })).toThrow(/admits nothing/);
  });

  it("turns const into a one-value enum and type [T, null] into nullable", () => {
    // Gemini refuses an enum without `type: STRING`.
    expect(toGeminiSchema({ const: "on" })).toEqual({ type: "string", enum: ["on"] });
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

describe("toGeminiSchema types an enum that has no type", () => {
  it("infers the type from the values, keeping the list for strings only", () => {
    expect(toGeminiSchema({ enum: ["a", "b"] })).toEqual({ type: "string", enum: ["a", "b"] });
    expect(toGeminiSchema({ enum: [1, 2, 3] })).toEqual({ type: "integer" });
    expect(toGeminiSchema({ enum: [0.5, 1] })).toEqual({ type: "number" });
    expect(toGeminiSchema({ enum: [true, false] })).toEqual({ type: "boolean" });
    expect(toGeminiSchema({ enum: ["a", null] })).toEqual({ type: "string", enum: ["a"], nullable: true });
    // Mixed values have no one type: a schema of any type, as before.
    expect(toGeminiSchema({ enum: ["a", 1] })).toEqual({});
  });

  it("keeps an integer enum's type through the compact form", () => {
    const level = { type: "integer", enum: [1, 2, 3] };
    expect(compactSchema(level)).toEqual(level);
    const tool = jsonTool("set_level", { type: "object", properties: { level }, required: ["level"] });
    const [declaration] = renderTools("gemini", [tool], {
      detail: "compact",
      form: "openapi",
    }).functionDeclarations;
    expect(declaration!.parameters).toEqual({
      type: "object",
      properties: { level: { type: "integer" } },
      required: ["level"],
    });
  });

  it("writes no enum beside a type other than string", () => {
    expect(toGeminiSchema({ type: ["string", "integer"], enum: ["a", "b"] })).toEqual({
      anyOf: [{ type: "string" }, { type: "integer" }],
    });
  });

  it.each(["full", "compact"] as const)(
    "gives every enum of the shipped catalogue, %s, type string",
    (detail) => {
      const tools = defaultCatalogue().tools;
      const declarations = renderTools("gemini", tools, { detail, form: "openapi" }).functionDeclarations;
      const enums = declarations.flatMap((declaration) =>
        schemaNodes(declaration.parameters).filter((node) => node.enum !== undefined),
      );
      expect(enums.length).toBeGreaterThan(0);
      for (const node of enums) expect(node.type).toBe("string");
    },
  );
});

describe("toGeminiSchema merges what applies together, whatever the key order", () => {
  const id = { properties: { id: { type: "string" } }, required: ["id"] };
  const note = { properties: { note: { type: "string" } }, required: ["note"] };
  const merged = {
    type: "object",
    properties: { note: { type: "string" }, id: { type: "string" } },
    required: ["note", "id"],
  };

  it("keeps the properties and required of both allOf and the node, in either order", () => {
    const allOfFirst = toGeminiSchema({ type: "object", allOf: [id], ...note });
    const allOfLast = toGeminiSchema({ type: "object", ...note, allOf: [id] });
    expect(allOfFirst).toEqual(merged);
    expect(JSON.stringify(allOfLast)).toBe(JSON.stringify(allOfFirst));
  });

  it("merges a $ref's sibling properties into the target's, keeping its required names", () => {
    const base = { type: "object", ...id };
    const converted = toGeminiSchema({
      $defs: { base },
      type: "object",
      properties: { x: { $ref: "#/$defs/base", ...note } },
    });
    const x = (converted.properties as Record<string, GeminiSchema>).x!;
    expect(x).toEqual(merged);
    expect(Object.keys(x.properties as object)).toEqual(expect.arrayContaining(x.required as string[]));
  });

  it("conjoins a property both sides declare", () => {
    expect(
      toGeminiSchema({
        allOf: [
          { properties: { a: { type: "string", description: "the a" } } },
          { properties: { a: { maxLength: 3 } }, required: ["a"] },
        ],
      }),
    ).toEqual({ properties: { a: { type: "string", description: "the a", maxLength: 3 } }, required: ["a"] });
  });

  it("lets the node's own keywords win over what allOf or a lone anyOf branch says", () => {
    const own = { description: "mine", maxLength: 5 };
    const branch = { type: "string", description: "theirs", maxLength: 3 };
    const expected = { description: "mine", maxLength: 5, type: "string" };
    expect(toGeminiSchema({ allOf: [branch], ...own })).toEqual(expected);
    expect(toGeminiSchema({ ...own, allOf: [branch] })).toEqual(expected);
    expect(toGeminiSchema({ anyOf: [branch, { type: "null" }], ...own })).toEqual({
      ...expected,
      nullable: true,
    });
  });
});

describe("renderGeminiTools in the openapi form", () => {
  it("contains a schema it cannot read or express to its own tool", () => {
    const tools = [
      jsonTool("plain", { type: "object", properties: { q: { type: "string" } }, required: ["q"] }),
      jsonTool("tree", {
        type: "object",
        $defs: {
          node: { type: "object", properties: { kids: { type: "array", items: { $ref: "#/$defs/node" } } } },
        },
        properties: { root: { $ref: "#/$defs/node" } },
      }),
      jsonTool("huge", doublingChain(16)),
      jsonTool("elsewhere", {
        $id: "https://example.com/s",
        type: "object",
        $defs: { n: { type: "number" } },
        properties: { n: { $ref: "https://example.com/s#/$defs/n" } },
      }),
    ];
    const [plain, tree, huge, elsewhere] = renderGeminiTools(tools, { form: "openapi" }).functionDeclarations;

    expect(plain).toEqual({
      name: "plain",
      description: "does plain",
      parameters: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    });
    expect(JSON.stringify(tree!.parameters)).toContain("it contains itself");
    expect(JSON.stringify(huge!.parameters)).toContain("too large for this format");
    expect(elsewhere).toEqual({
      name: "elsewhere",
      description: `does elsewhere\n\n${PARAMETERS_NOT_SHOWN}`,
    });
  });
});

describe("bounds and a reference's siblings", () => {
  it("keeps the tighter of an inclusive and an exclusive bound, in either order", () => {
    const tighter = { type: "object", properties: { n: { type: "integer", minimum: 6, maximum: 9 } } };
    expect(
      toGeminiSchema({
        type: "object",
        properties: {
          n: { type: "integer", exclusiveMinimum: 5, minimum: 0, maximum: 9, exclusiveMaximum: 20 },
        },
      }),
    ).toEqual(tighter);
    expect(
      toGeminiSchema({
        type: "object",
        properties: {
          n: { type: "integer", minimum: 0, exclusiveMinimum: 5, exclusiveMaximum: 20, maximum: 9 },
        },
      }),
    ).toEqual(tighter);
  });

  it("reads a reference's siblings as of the type it points to", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: {
        when: { $ref: "#/$defs/When", format: "date-time" },
        count: { $ref: "#/$defs/Count", exclusiveMinimum: 0 },
      },
      $defs: { When: { type: "string" }, Count: { type: "integer" } },
    });
    expect(converted.properties).toEqual({
      when: { type: "string", format: "date-time" },
      count: { type: "integer", minimum: 1 },
    });
  });

  it("reads a nullable type, and a chain of references, as the type they come to", () => {
    const converted = toGeminiSchema({
      type: "object",
      properties: {
        n: { type: ["integer", "null"], exclusiveMinimum: 0, format: "int64" },
        when: { $ref: "#/$defs/MaybeWhen", format: "date-time" },
        count: { $ref: "#/$defs/Alias", exclusiveMinimum: 0 },
      },
      $defs: {
        MaybeWhen: { type: ["string", "null"] },
        Alias: { $ref: "#/$defs/Count" },
        Count: { type: "integer" },
      },
    });
    expect(converted.properties).toEqual({
      n: { type: "integer", nullable: true, minimum: 1, format: "int64" },
      when: { type: "string", nullable: true, format: "date-time" },
      count: { type: "integer", minimum: 1 },
    });
  });
});
