import { describe, expect, it } from "vitest";
import { OPENAI_FUNCTIONS_FRAME, openAIFunctionText } from "./openai-function-text.js";
import { loadO200kCounter } from "./token-counter.js";

const weather = {
  name: "get_current_weather",
  description: "Get the current weather in a given location",
  parameters: {
    type: "object",
    properties: {
      location: { type: "string", description: "The city and state, e.g. San Francisco, CA" },
      unit: {
        type: "string",
        description: "The unit of temperature to return",
        enum: ["celsius", "fahrenheit"],
      },
    },
    required: ["location"],
  },
};

describe("openAIFunctionText", () => {
  it("writes a function as a TypeScript type: descriptions as comments, optional parameters with ?", () => {
    expect(openAIFunctionText(weather)).toBe(
      [
        "// Get the current weather in a given location",
        "type get_current_weather = (_: {",
        "// The city and state, e.g. San Francisco, CA",
        "location: string,",
        "// The unit of temperature to return",
        'unit?: "celsius" | "fahrenheit",',
        "}) => any;",
        "",
        "",
      ].join("\n"),
    );
  });

  it("comments every line of a description, and writes no comment for none", () => {
    expect(openAIFunctionText({ name: "two", description: "First line.\r\nSecond line.\n" })).toBe(
      "// First line.\n// Second line.\ntype two = () => any;\n\n",
    );
    expect(openAIFunctionText({ name: "bare", description: "", parameters: { type: "object" } })).toBe(
      "type bare = (_: {\n}) => any;\n\n",
    );
  });

  it("writes arrays, numbers, type lists, defaults, titles, examples and nested objects", () => {
    const text = openAIFunctionText({
      name: "shape",
      parameters: {
        type: "object",
        properties: {
          tags: { type: "array", items: { type: "string" } },
          rows: { type: "array" },
          count: { type: "integer", default: 20 },
          mode: { type: "string", enum: ["fast", "slow"], default: "fast" },
          label: { type: "string", default: "none", title: "Label", examples: ["urgent"] },
          when: { type: ["string", "null"] },
          where: {
            type: "object",
            description: "a place",
            properties: { city: { type: "string" } },
            required: ["city"],
          },
        },
        required: ["tags"],
      },
    });
    expect(text).toBe(
      [
        "type shape = (_: {",
        "tags: string[],",
        "rows?: Array<any>,",
        "count?: number, // default: 20",
        'mode?: "fast" | "slow", // default: fast',
        "// Label",
        "//",
        "// Examples:",
        '// - "urgent"',
        'label?: string, // default: "none"',
        "when?: string | null,",
        "// a place",
        "where?:     // a place",
        "{",
        "    city: string,",
        "    },",
        "}) => any;",
        "",
        "",
      ].join("\n"),
    );
  });

  it("names each member of a union, where OpenAI's own renderer writes any", () => {
    const text = openAIFunctionText({
      name: "pick",
      parameters: {
        type: "object",
        properties: {
          cell: {
            description: "a cell",
            anyOf: [{ type: "string" }, { type: "number", description: "as a count" }],
          },
          level: { enum: [1, 2, 3] },
          fixed: { const: "on" },
          maybe: { type: "string", nullable: true },
          anything: {},
        },
      },
    });
    expect(text).toBe(
      [
        "type pick = (_: {",
        "// a cell",
        "cell?:",
        " | string",
        " | number // as a count",
        ",",
        "level?: 1 | 2 | 3,",
        'fixed?: "on",',
        "maybe?: string | null,",
        "anything?: any,",
        "}) => any;",
        "",
        "",
      ].join("\n"),
    );
  });

  it("counts OpenAI's own example within 2 tokens of what its API billed, where the JSON overcounts by 17", async () => {
    // OpenAI's cookbook ("How to count tokens with tiktoken", section 7) sent this tool with two messages
    // to gpt-4o and was billed 101 prompt tokens, 33 of them for the messages.
    const counter = await loadO200kCounter();
    const billedForTools = 101 - 33;
    const counted = counter.count(OPENAI_FUNCTIONS_FRAME) + counter.count(openAIFunctionText(weather));
    expect(Math.abs(counted - billedForTools)).toBeLessThanOrEqual(2);
    const json = counter.count(JSON.stringify({ type: "function", function: weather }));
    expect(json - billedForTools).toBe(17);
  });
});
