import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolDefinitionError } from "../errors/tool-definition-error.js";
import { defineTool, type ToolDeclaration } from "./define-tool.js";

const base: ToolDeclaration<{ q: string }, unknown> = {
  name: "lookup_thing",
  description: "Looks a thing up.",
  category: "data",
  effect: "read",
  input: z.object({ q: z.string() }),
  run: () => "ok",
};

function refusal(overrides: Record<string, unknown>): ToolDefinitionError {
  try {
    defineTool({ ...base, ...overrides } as ToolDeclaration<{ q: string }, unknown>);
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error("defineTool accepted the declaration");
}

describe("defineTool", () => {
  it("derives approval and idempotency from the effect", () => {
    const cases = [
      ["read", "never", false],
      ["internal-write", "never", false],
      ["external-write", "always", true],
      ["destructive", "always", true],
    ] as const;
    for (const [effect, approval, idempotencyKey] of cases) {
      const tool = defineTool({ ...base, effect });
      expect([tool.approval, tool.idempotencyKey, tool.overrides]).toEqual([approval, idempotencyKey, []]);
    }
  });

  it("derives the JSON Schema from the zod input", () => {
    const tool = defineTool(base);
    expect(tool.inputJsonSchema).toMatchObject({
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    });
  });

  it("accepts a plain JSON Schema input and validates with it", () => {
    const tool = defineTool({
      ...base,
      input: { type: "object", properties: { q: { type: "string" } }, required: ["q"] },
    } as unknown as ToolDeclaration<{ q: string }, unknown>);
    expect(tool.input.validate({ q: "x" })).toEqual({ ok: true, value: { q: "x" } });
    expect(tool.input.validate({ q: 1 })).toMatchObject({ ok: false, issues: [{ path: "q" }] });
    expect(tool.input.validate({})).toMatchObject({
      ok: false,
      issues: [{ path: "q", message: "is required" }],
    });
  });

  it("declares a plain JSON Schema with an $id again and again, as a re-listed import does", () => {
    const schema = () => ({
      $id: "https://upstream.example/schemas/search",
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    });
    for (let round = 0; round < 3; round++) {
      const tool = defineTool({ ...base, input: schema() } as unknown as ToolDeclaration<
        { q: string },
        unknown
      >);
      expect(tool.input.validate({ q: "x" })).toEqual({ ok: true, value: { q: "x" } });
      expect(tool.input.validate({})).toMatchObject({ ok: false });
    }
  });

  it("refuses, naming tool and field", () => {
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ name: "LookupThing" }, "name", /snake_case/],
      [{ name: "lookup__thing" }, "name", /snake_case/],
      [{ name: "a".repeat(65) }, "name", /64/],
      [{ category: "social" }, "category", /"social" is not a known category/],
      [{ effect: undefined }, "effect", /required/],
      [{ effect: "publishing" }, "effect", /not a known effect/],
      [{ input: z.object({ when: z.date() }) }, "input", /cannot become JSON Schema/],
      [{ input: z.string() }, "input", /object/],
      [{ input: { type: "object", properties: { q: { type: "nope" } } } }, "input", /not valid JSON Schema/],
      [{ approval: "policy" }, "approval", /without an overrideReason/],
      [{ effect: "external-write", idempotencyKey: false }, "idempotencyKey", /without an overrideReason/],
      [{ overrideReason: "because" }, "overrideReason", /nothing is overridden/],
      [{ version: "1.0" }, "version", /semver/],
      [{ runtime: "newest please" }, "runtime", /not a semver range/],
      [{ runtime: ">=2 <<4" }, "runtime", /not a semver range/],
      [{ description: " " }, "description", /required/],
      [{ limits: { timeoutMs: -1 } }, "limits.timeoutMs", /whole number from 1/],
      [{ limits: { timeoutMs: 2 ** 31 } }, "limits.timeoutMs", /whole number from 1 to 86400000/],
    ];
    for (const [overrides, field, message] of cases) {
      const error = refusal(overrides);
      expect({ field: error.field, tool: error.toolName }).toEqual({
        field,
        tool: (overrides.name as string | undefined) ?? "lookup_thing",
      });
      expect(error.message).toMatch(message);
    }
  });

  it("keeps a runtime range that parses", () => {
    expect(defineTool({ ...base, runtime: ">=2.1.0 <4" }).runtime).toBe(">=2.1.0 <4");
    expect(defineTool({ ...base, runtime: "^1.2.0 || ^2" }).runtime).toBe("^1.2.0 || ^2");
  });

  it("records an override with its reason", () => {
    const tool = defineTool({ ...base, approval: "policy", overrideReason: "reads a URL the model chose" });
    expect(tool.approval).toBe("policy");
    expect(tool.overrides).toEqual([
      { field: "approval", derived: "never", declared: "policy", reason: "reads a URL the model chose" },
    ]);
  });

  it("hashes the definition: a changed description changes the hash, the run body does not", () => {
    const a = defineTool(base);
    expect(defineTool({ ...base, run: () => "other" }).hash).toBe(a.hash);
    expect(defineTool({ ...base, description: "Looks a thing up, now elsewhere." }).hash).not.toBe(a.hash);
  });
});
