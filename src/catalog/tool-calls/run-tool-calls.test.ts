import fc from "fast-check";
import { describe, expect, expectTypeOf, it } from "vitest";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness } from "../../test/test-harness.js";
import { thinkTool } from "../../tools/general/index.js";
import { CATALOG_PROVIDERS, type CatalogProvider } from "../render-catalog.js";
import type { AnthropicToolResultMessage } from "./anthropic.js";
import type { GeminiFunctionResponseContent } from "./gemini.js";
import type { McpCallToolResult } from "./mcp.js";
import type { OpenAIChatToolMessage } from "./openai-chat.js";
import type { OpenAIResponsesFunctionCallOutput } from "./openai-responses.js";
import { renderToolResults, type ToolResultFormats } from "./render-tool-results.js";
import { runToolCalls } from "./run-tool-calls.js";

const chatCall = (id: string, name: string, args: string) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});

describe("runToolCalls", () => {
  it("runs calls one after another in message order, so side effects never race", async () => {
    const log: string[] = [];
    const slow = createScriptedTool([
      async (input) => {
        const { n } = input as { n: number };
        log.push(`start ${n}`);
        await new Promise((resolve) => setTimeout(resolve, 10 - n * 4));
        log.push(`end ${n}`);
        return `done ${n}`;
      },
    ]);
    const { seam, context } = createTestHarness([slow]);
    const { rendered } = await runToolCalls({
      seam,
      provider: "openai-chat",
      message: {
        tool_calls: [1, 2].map((n) => chatCall(`call_${n}`, "scripted_tool", JSON.stringify({ n }))),
      },
      context: (id) => context({ toolCallId: id }),
    });
    expect(log).toEqual(["start 1", "end 1", "start 2", "end 2"]);
    expect(rendered.map((message) => message.content)).toEqual(["done 1", "done 2"]);
  });

  it("answers refused calls with their own envelope, without building a context or calling the seam", async () => {
    const { seam, context } = createTestHarness([thinkTool]);
    const asked: string[] = [];
    const { results } = await runToolCalls({
      seam,
      provider: "openai-chat",
      message: {
        tool_calls: [chatCall("call_1", "think", "{"), chatCall("call_2", "think", '{"thought":"x"}')],
      },
      context: (id) => {
        asked.push(id);
        return context({ toolCallId: id });
      },
    });
    expect(asked).toEqual(["call_2"]);
    expect(results.map(({ call, envelope }) => [call.ok, envelope.ok])).toEqual([
      [false, false],
      [true, true],
    ]);
  });

  it("turns a context the host cannot build into an error for that call alone", async () => {
    const { seam, context } = createTestHarness([thinkTool]);
    const { rendered } = await runToolCalls({
      seam,
      provider: "anthropic",
      message: {
        content: [
          { type: "tool_use", id: "toolu_1", name: "think", input: { thought: "a" } },
          { type: "tool_use", id: "toolu_2", name: "think", input: { thought: "b" } },
        ],
      },
      context: (id) => {
        if (id === "toolu_1") throw new Error("no session for this user");
        return context({ toolCallId: id });
      },
    });
    expect(rendered).toEqual([
      {
        role: "user",
        content: [
          {
            type: "tool_result",
            tool_use_id: "toolu_1",
            content: "error internal: toolreg could not prepare the call to think: no session for this user",
            is_error: true,
          },
          { type: "tool_result", tool_use_id: "toolu_2", content: "Noted." },
        ],
      },
    ]);
  });

  it("answers a thousand calls in one message, each once and in order", async () => {
    const { seam, context } = createTestHarness([thinkTool]);
    const ids = Array.from({ length: 1000 }, (_, index) => `call_${index}`);
    const { rendered } = await runToolCalls({
      seam,
      provider: "openai-responses",
      message: ids.map((id) => ({
        type: "function_call",
        call_id: id,
        name: "think",
        arguments: '{"thought":"again"}',
      })),
      context: (id) => context({ toolCallId: id }),
    });
    expect(rendered.map((item) => item.call_id)).toEqual(ids);
    expect(new Set(rendered.map((item) => item.output))).toEqual(new Set(["Noted."]));
  });

  it("types what it renders by provider", async () => {
    const { seam, context } = createTestHarness([thinkTool]);
    const run = <P extends CatalogProvider>(provider: P) =>
      runToolCalls({ seam, provider, message: null, context: (id) => context({ toolCallId: id }) });
    expectTypeOf((await run("openai-chat")).rendered).toEqualTypeOf<OpenAIChatToolMessage[]>();
    expectTypeOf((await run("openai-responses")).rendered).toEqualTypeOf<
      OpenAIResponsesFunctionCallOutput[]
    >();
    expectTypeOf((await run("anthropic")).rendered).toEqualTypeOf<AnthropicToolResultMessage[]>();
    expectTypeOf((await run("gemini")).rendered).toEqualTypeOf<GeminiFunctionResponseContent[]>();
    expectTypeOf((await run("mcp")).rendered).toEqualTypeOf<McpCallToolResult>();
    expect(CATALOG_PROVIDERS.map((provider) => renderToolResults(provider, []))).toEqual([
      [],
      [],
      [],
      [],
      { content: [] },
    ]);
  });
});

/** How many results a rendering answers: each call must be answered exactly once. */
const answerCounts: { [P in CatalogProvider]: (rendered: ToolResultFormats[P]) => number } = {
  "openai-chat": (rendered) => rendered.length,
  "openai-responses": (rendered) => rendered.length,
  anthropic: (rendered) => rendered[0]?.content.length ?? 0,
  gemini: (rendered) => rendered[0]?.parts.length ?? 0,
  mcp: (rendered) => rendered.content.length,
};

function answered<P extends CatalogProvider>(provider: P, rendered: ToolResultFormats[P]): number {
  return answerCounts[provider](rendered);
}

describe("runToolCalls on arbitrary messages", () => {
  /** Sometimes the right thing, often junk: JSON of any kind, near-miss names, broken or extra arguments. */
  const junk = fc.oneof(
    fc.jsonValue({ maxDepth: 2 }),
    fc.constantFrom("", "{", "[1]", "thinker", '{"thought":"x","extra":true}'),
  );
  const name = fc.oneof(fc.constantFrom("think", "send_message"), junk);
  const args = fc.oneof(
    fc.constantFrom('{"thought":"x"}', { thought: "y" }, { to: "bob" }),
    fc.dictionary(fc.constantFrom("thought", "to", "extra"), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
    junk,
  );
  const id = fc.oneof(fc.constantFrom("call_1", "call_2", "bad id"), junk);
  const maybe = <T>(arbitrary: fc.Arbitrary<T>) => fc.oneof(arbitrary, arbitrary, junk);
  const list = <T>(item: fc.Arbitrary<T>) => maybe(fc.array(maybe(item), { maxLength: 5 }));
  const partial = <T extends Record<string, unknown>>(fields: { [K in keyof T]: fc.Arbitrary<T[K]> }) =>
    fc.record(fields, { requiredKeys: [] });
  const shaped: { [P in CatalogProvider]: fc.Arbitrary<unknown> } = {
    "openai-chat": partial({
      role: fc.constant("assistant"),
      tool_calls: list(
        partial({ id, type: fc.constant("function"), function: maybe(partial({ name, arguments: args })) }),
      ),
    }),
    "openai-responses": list(
      partial({ type: fc.constantFrom("function_call", "message"), call_id: id, name, arguments: args }),
    ),
    anthropic: partial({
      role: fc.constant("assistant"),
      content: list(partial({ type: fc.constantFrom("tool_use", "text"), id, name, input: args })),
    }),
    gemini: partial({
      role: fc.constant("model"),
      parts: list(partial({ functionCall: maybe(partial({ name, args, id })), text: junk })),
    }),
    mcp: partial({ name, arguments: args }),
  };

  it.each(CATALOG_PROVIDERS)(
    "%s: never throws, and answers every call it read exactly once",
    async (provider) => {
      const sendMessage = createScriptedTool(["sent"], { name: "send_message", effect: "external-write" });
      const { seam, context } = createTestHarness([thinkTool, sendMessage]);
      await fc.assert(
        fc.asyncProperty(fc.oneof(shaped[provider], shaped[provider], fc.anything()), async (message) => {
          const { results, rendered } = await runToolCalls({
            seam,
            provider,
            message,
            context: (id) => context({ toolCallId: id }),
          });
          expect(answered(provider, rendered)).toBe(results.length);
          if (provider === "mcp") expect(results).toHaveLength(1);
        }),
        { numRuns: 150 },
      );
    },
  );
});
