import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../declaration/define-tool.js";
import type { Effect } from "../declaration/effect.js";
import { ToolRegistry } from "../registry/registry.js";
import { renderAnthropicTools } from "./anthropic.js";
import { renderGeminiTools } from "./gemini.js";
import { renderMcpTools } from "./mcp.js";
import { renderOpenAIChatTools } from "./openai-chat.js";
import { renderOpenAIResponsesTools } from "./openai-responses.js";
import { CATALOG_PROVIDERS, renderCatalog } from "./render-catalog.js";

function tool(name: string, effect: Effect = "read") {
  return defineTool({
    name,
    description: `does ${name}`,
    category: "general",
    effect,
    input: z.object({ q: z.string().describe("the query") }),
    run: () => "ok",
  });
}

const parameters = {
  type: "object",
  properties: { q: { type: "string", description: "the query" } },
  required: ["q"],
};

describe("provider renderers", () => {
  const tools = [tool("alpha"), tool("beta", "destructive")];

  it("openai chat: function tools without $schema, strict only when asked", () => {
    const rendered = renderOpenAIChatTools(tools);
    expect(rendered[0]).toEqual({
      type: "function",
      function: { name: "alpha", description: "does alpha", parameters },
    });
    expect(renderOpenAIChatTools(tools, { strict: true })[1]!.function.strict).toBe(true);
  });

  it("openai responses: flat function tools with strict false by default", () => {
    expect(renderOpenAIResponsesTools(tools)[1]).toEqual({
      type: "function",
      name: "beta",
      description: "does beta",
      parameters,
      strict: false,
    });
  });

  it("anthropic: input_schema, and a cache breakpoint on the last tool only when asked", () => {
    expect(renderAnthropicTools(tools)[0]).toEqual({
      name: "alpha",
      description: "does alpha",
      input_schema: parameters,
    });
    const cached = renderAnthropicTools(tools, { cacheLastTool: true });
    expect(cached[0]!.cache_control).toBeUndefined();
    expect(cached[1]!.cache_control).toEqual({ type: "ephemeral" });
    expect(renderAnthropicTools([], { cacheLastTool: true })).toEqual([]);
  });

  it("gemini: parametersJsonSchema by default, down-converted parameters on request", () => {
    expect(renderGeminiTools(tools).functionDeclarations[0]).toEqual({
      name: "alpha",
      description: "does alpha",
      parametersJsonSchema: parameters,
    });
    expect(renderGeminiTools(tools, { form: "openapi" }).functionDeclarations[0]).toEqual({
      name: "alpha",
      description: "does alpha",
      parameters: {
        type: "object",
        properties: { q: { type: "string", description: "the query" } },
        required: ["q"],
      },
    });
  });

  it("gemini openapi: a tool without inputs has no parameters", () => {
    const bare = defineTool({
      name: "ping",
      description: "pings",
      category: "general",
      effect: "read",
      input: z.object({}),
      run: () => "ok",
    });
    expect(renderGeminiTools([bare], { form: "openapi" }).functionDeclarations[0]).toEqual({
      name: "ping",
      description: "pings",
    });
  });

  it("mcp: annotations derived from the effect, all four always present", () => {
    const all = [
      tool("reads"),
      tool("writes_here", "internal-write"),
      tool("writes_out", "external-write"),
      tool("wipes", "destructive"),
    ];
    expect(renderMcpTools(all).map((entry) => entry.annotations)).toEqual([
      { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
      { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    ]);
    expect(renderMcpTools(all)[0]!.inputSchema).toEqual(parameters);
  });

  it("keeps the given order and never shares objects with the tool", () => {
    const reversed = [...tools].reverse();
    expect(renderMcpTools(reversed).map((entry) => entry.name)).toEqual(["beta", "alpha"]);
    const rendered = renderOpenAIChatTools(tools);
    (rendered[0]!.function.parameters as { type: string }).type = "mutated";
    expect(tools[0]!.inputJsonSchema.type).toBe("object");
    expect(tools[0]!.inputJsonSchema.$schema).toBeDefined();
  });
});

describe("renderCatalog", () => {
  it("returns the same frozen object for a second render at the same revision", () => {
    const registry = new ToolRegistry([tool("alpha"), tool("beta")]);
    const view = registry.view();
    for (const provider of CATALOG_PROVIDERS) {
      const first = renderCatalog(provider, view);
      expect(renderCatalog(provider, view)).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
    }
  });

  it("renders again when the revision changes", () => {
    const registry = new ToolRegistry([tool("alpha")]);
    const view = registry.view();
    const before = renderCatalog("mcp", view);
    registry.install(tool("gamma"));
    const after = renderCatalog("mcp", view);
    expect(after).not.toBe(before);
    expect(after.map((entry) => entry.name)).toEqual(["alpha", "gamma"]);
    expect(renderCatalog("mcp", view)).toBe(after);
  });

  it("caches per filter key and per options, calling the filter only on a miss", () => {
    const registry = new ToolRegistry([tool("alpha"), tool("beta", "destructive")]);
    const view = registry.view();
    let calls = 0;
    const readsOnly = {
      key: "tenant-a",
      select: (tools: readonly ReturnType<typeof tool>[]) => {
        calls++;
        return tools.filter((entry) => entry.effect === "read");
      },
    };
    const forA = renderCatalog("anthropic", view, readsOnly);
    expect(forA.map((entry) => entry.name)).toEqual(["alpha"]);
    expect(renderCatalog("anthropic", view, readsOnly)).toBe(forA);
    expect(calls).toBe(1);
    expect(renderCatalog("anthropic", view).map((entry) => entry.name)).toEqual(["alpha", "beta"]);
    const cached = renderCatalog("anthropic", view, readsOnly, { cacheLastTool: true });
    expect(cached).not.toBe(forA);
    expect(cached[0]!.cache_control).toEqual({ type: "ephemeral" });
  });

  it("renders byte-identical output from separate registries of the same tools", () => {
    const a = new ToolRegistry([tool("alpha"), tool("beta")]).view();
    const b = new ToolRegistry([tool("alpha"), tool("beta")]).view();
    for (const provider of CATALOG_PROVIDERS) {
      expect(JSON.stringify(renderCatalog(provider, a))).toBe(JSON.stringify(renderCatalog(provider, b)));
    }
  });
});
