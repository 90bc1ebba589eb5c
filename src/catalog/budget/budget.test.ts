import { beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineTool } from "../../declaration/define-tool.js";
import type { AnyTool } from "../../registry/registry.js";
import { generalTools } from "../../tools/general/index.js";
import { renderTools } from "../render-catalog.js";
import { compactSchema } from "./compact-tool.js";
import { type CatalogTruncatedEvent, countedAs, entryTokens, fitCatalog } from "./fit-catalog.js";
import { OPENAI_FUNCTIONS_FRAME, openAIFunctionText } from "./openai-function-text.js";
import { countJsonTokens, loadO200kCounter, type TokenCounter } from "./token-counter.js";

let counter: TokenCounter;
beforeAll(async () => {
  counter = await loadO200kCounter();
});

const tool = (name: string, description: string) =>
  defineTool({
    name,
    description,
    category: "meta",
    effect: "read",
    input: z.object({ query: z.string().describe("what to look for") }),
    run: () => "ok",
  });

describe("token counting", () => {
  it("counts an OpenAI entry as the TypeScript its models read, any other as compact JSON, once per tool and rendering", () => {
    expect(counter.encoding).toBe("o200k_base");
    expect(counter.count("hello world")).toBe(2);
    const [now] = generalTools({}) as AnyTool[];
    const chat = renderTools("openai-chat", [now as AnyTool])[0];
    const tokens = entryTokens("openai-chat", now as AnyTool, counter);
    expect(tokens).toBe(counter.count(openAIFunctionText(chat?.function ?? { name: "" })));
    expect(tokens).toBeLessThan(counter.count(JSON.stringify(chat)));
    expect(entryTokens("openai-responses", now as AnyTool, counter)).toBe(tokens);
    const anthropic = renderTools("anthropic", [now as AnyTool])[0];
    expect(entryTokens("anthropic", now as AnyTool, counter)).toBe(counter.count(JSON.stringify(anthropic)));
    expect(entryTokens("openai-chat", now as AnyTool, counter, { detail: "compact" })).toBeLessThan(tokens);
    expect(countedAs("openai-responses")).toBe("typescript");
    expect(countedAs("gemini")).toBe("json");
  });
});

describe("compact mode", () => {
  it("keeps every parameter's name, type, requiredness and values, and drops prose, bounds and what is implied", () => {
    const schema = {
      type: "object",
      description: "the input",
      properties: {
        description: { type: "string", description: "a property that happens to be called description" },
        limit: { type: "integer", minimum: 1, maximum: 100, default: 20 },
        status: { type: "string", enum: ["open", "closed"] },
        tags: { type: "array", items: { type: "string", maxLength: 20 }, maxItems: 5 },
        when: { anyOf: [{ type: "string", format: "date-time" }, { type: "null" }] },
        cell: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        extra: { type: "object", additionalProperties: {} },
        labels: { type: "object", additionalProperties: { type: "string" } },
        day: {
          anyOf: [
            { type: "string", format: "date" },
            { type: "string", format: "date-time" },
          ],
        },
        size: {
          anyOf: [{ type: "integer", maximum: 9 }, { type: "integer", minimum: 100 }, { type: "null" }],
        },
      },
      required: ["description"],
      additionalProperties: false,
    };
    expect(compactSchema(schema)).toEqual({
      type: "object",
      properties: {
        description: { type: "string" },
        limit: { type: "integer" },
        status: { type: "string", enum: ["open", "closed"] },
        tags: { type: "array", items: { type: "string" } },
        when: { type: ["string", "null"] },
        cell: { anyOf: [{ type: "string" }, { type: "array", items: { type: "string" } }] },
        extra: { type: "object" },
        labels: { type: "object", additionalProperties: { type: "string" } },
        day: { type: "string" },
        size: { type: ["integer", "null"] },
      },
      required: ["description"],
      additionalProperties: false,
    });
  });

  it("renders compact entries for every provider from the same tools", () => {
    const tools = generalTools({});
    const full = renderTools("anthropic", tools);
    const compact = renderTools("anthropic", tools, { detail: "compact" });
    expect(compact.map((entry) => entry.name)).toEqual(full.map((entry) => entry.name));
    expect(JSON.stringify(compact).length).toBeLessThan(JSON.stringify(full).length);
    expect(
      renderTools("gemini", tools, { detail: "compact", form: "openapi" }).functionDeclarations,
    ).toHaveLength(tools.length);
  });
});

describe("catalogBudget", () => {
  const catalogue = [
    tool("alpha_tool", "Alpha does the first thing."),
    tool("beta_tool", `Beta does ${"a great many things ".repeat(40)}`),
    tool("gamma_tool", "Gamma does the third thing."),
    tool("find_tools", "Search the tools you may use."),
  ];

  it("keeps everything and reports nothing when the catalogue fits", () => {
    const seen: CatalogTruncatedEvent[] = [];
    const fitted = fitCatalog("openai-chat", catalogue, {
      budget: { maxTokens: 100_000 },
      counter,
      onTruncated: (event) => seen.push(event),
    });
    expect(fitted.truncated).toBeUndefined();
    expect(seen).toEqual([]);
    expect(fitted.output).toEqual(renderTools("openai-chat", catalogue));
  });

  it("drops what does not fit, pins find_tools, keeps catalogue order, and names every dropped tool", () => {
    const small = ["alpha_tool", "gamma_tool", "find_tools"].map((name) =>
      entryTokens("openai-chat", catalogue.find((entry) => entry.name === name) as AnyTool, counter),
    );
    // The namespace around OpenAI's functions is paid once, with the first tool kept.
    const maxTokens = small.reduce((sum, tokens) => sum + tokens, counter.count(OPENAI_FUNCTIONS_FRAME));
    const seen: CatalogTruncatedEvent[] = [];
    const fitted = fitCatalog("openai-chat", catalogue, {
      budget: { maxTokens },
      counter,
      onTruncated: (event) => seen.push(event),
    });
    expect(fitted.tools.map((entry) => entry.name)).toEqual(["alpha_tool", "gamma_tool", "find_tools"]);
    expect(fitted.output.map((entry) => entry.function.name)).toEqual([
      "alpha_tool",
      "gamma_tool",
      "find_tools",
    ]);
    expect(fitted.usedTokens).toBe(maxTokens);
    expect(seen).toEqual([
      {
        type: "catalog.truncated",
        provider: "openai-chat",
        budget: {
          name: "catalogBudget",
          maxTokens,
          usedTokens: maxTokens,
          encoding: "o200k_base",
          countedAs: "typescript",
        },
        dropped: ["beta_tool"],
        kept: 3,
        findToolsOffered: true,
        executeToolOffered: false,
      },
    ]);
  });

  it("says when find_tools itself did not fit: an amputation, not a deferral", () => {
    const large = tool("find_tools", `Search ${"the tools you may use ".repeat(30)}`);
    const tools = [catalogue[0] as AnyTool, large, catalogue[2] as AnyTool];
    const maxTokens = entryTokens("anthropic", large, counter) - 1;
    const fitted = fitCatalog("anthropic", tools, { budget: { maxTokens }, counter });
    expect(fitted.tools.map((entry) => entry.name)).toEqual(["alpha_tool", "gamma_tool"]);
    expect(fitted.truncated).toMatchObject({
      dropped: ["find_tools"],
      findToolsOffered: false,
      executeToolOffered: false,
    });
    expect(() => fitCatalog("mcp", catalogue, { budget: { maxTokens: 0 }, counter })).toThrow(RangeError);
  });

  it("keeps execute_tool before learn_tools, so a dropped tool stays reachable when only two fit", () => {
    const meta = ["learn_tools", "execute_tool", "find_tools"].map((name) => tool(name, `${name} does it.`));
    const tools = [...meta, catalogue[0] as AnyTool];
    const [learn, execute, find] = meta.map((entry) => entryTokens("openai-chat", entry, counter));
    const frame = counter.count(OPENAI_FUNCTIONS_FRAME);
    const maxTokens = frame + (find as number) + (execute as number);
    expect(maxTokens).toBeLessThan(frame + (find as number) + (learn as number) + (execute as number));
    const fitted = fitCatalog("openai-chat", tools, { budget: { maxTokens }, counter });
    expect(fitted.tools.map((entry) => entry.name)).toEqual(["execute_tool", "find_tools"]);
    expect(fitted.truncated).toMatchObject({ findToolsOffered: true, executeToolOffered: true });
    expect(fitted.truncated?.dropped).toEqual(["learn_tools", "alpha_tool"]);
  });

  it("counts Anthropic's cache breakpoint once, on the last tool, not on every entry", () => {
    const tools = [catalogue[0], catalogue[2], catalogue[3]] as AnyTool[];
    const render = { cacheLastTool: true };
    const real = renderTools("anthropic", tools, render).reduce(
      (sum, entry) => sum + counter.count(JSON.stringify(entry)),
      0,
    );
    const fitted = fitCatalog("anthropic", tools, { budget: { maxTokens: real }, counter, render });
    expect(fitted.truncated).toBeUndefined();
    expect(fitted.usedTokens).toBe(real);
    expect(fitted.output.at(-1)?.cache_control).toEqual({ type: "ephemeral" });
    const tight = fitCatalog("anthropic", tools, { budget: { maxTokens: real - 1 }, counter, render });
    expect(tight.truncated?.dropped).toHaveLength(1);
  });

  it("counts OpenAI's shapes as JSON when told, for a server whose model reads the JSON", () => {
    const tools = [catalogue[0], catalogue[2]] as AnyTool[];
    const json = renderTools("openai-chat", tools).reduce(
      (sum, entry) => sum + countJsonTokens(counter, entry),
      0,
    );
    const fitted = fitCatalog("openai-chat", tools, {
      budget: { maxTokens: json },
      counter,
      countAs: "json",
    });
    expect(fitted.usedTokens).toBe(json);
    expect(fitted.truncated).toBeUndefined();
    const tight = fitCatalog("openai-chat", tools, {
      budget: { maxTokens: json - 1 },
      counter,
      countAs: "json",
    });
    expect(tight.truncated?.budget.countedAs).toBe("json");
    // Read as TypeScript, the same two fit with room to spare.
    expect(
      fitCatalog("openai-chat", tools, { budget: { maxTokens: json - 1 }, counter }).truncated,
    ).toBeUndefined();
    expect(() =>
      fitCatalog("anthropic", tools, { budget: { maxTokens: json }, counter, countAs: "typescript" }),
    ).toThrow("anthropic entries are counted as JSON");
  });

  it("counts with the counter it is given, even when another shares its encoding's name", () => {
    const [now] = generalTools({}) as AnyTool[];
    const real = entryTokens("mcp", now as AnyTool, counter);
    const flat: TokenCounter = { encoding: counter.encoding, count: () => 1 };
    expect(entryTokens("mcp", now as AnyTool, flat)).toBe(1);
    expect(entryTokens("mcp", now as AnyTool, counter)).toBe(real);
  });
});
