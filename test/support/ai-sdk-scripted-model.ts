/** @module Scripted AI SDK model turns for the adapter's tests, in the test process or a child one. */
import type { MockLanguageModelV3 } from "ai/test";

/** What the mock model answers on one turn (the same LanguageModelV3 shape under ai 6 and ai 7). */
export type ModelResponse = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;

const usage: ModelResponse["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** A model turn that calls tools. */
export function callsTools(...calls: { id: string; name: string; input: unknown }[]): ModelResponse {
  return {
    content: calls.map((call) => ({
      type: "tool-call" as const,
      toolCallId: call.id,
      toolName: call.name,
      input: JSON.stringify(call.input),
    })),
    finishReason: { unified: "tool-calls", raw: undefined },
    usage,
    warnings: [],
  };
}

/** A model turn that answers in text. */
export function says(text: string): ModelResponse {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage,
    warnings: [],
  };
}

/** The tool results in the prompt of the model's `turn`-th call: what the model read. */
export function toolOutputsSeen(model: MockLanguageModelV3, turn: number): unknown[] {
  const prompt = model.doGenerateCalls[turn]?.prompt ?? [];
  return prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.flatMap((part) => (part.type === "tool-result" ? [part.output] : []))
      : [],
  );
}
