/**
 * @module A scripted stand-in for a real model, so the example runs offline and the same way every time.
 * It reacts to what it reads like an agent would: searches, calls what the search found, then answers.
 */
import { MockLanguageModelV3 } from "ai/test";

type ModelCall = Parameters<MockLanguageModelV3["doGenerate"]>[0];
type ModelTurn = Awaited<ReturnType<MockLanguageModelV3["doGenerate"]>>;
type ToolResult = Extract<
  Extract<ModelCall["prompt"][number], { role: "tool" }>["content"][number],
  { type: "tool-result" }
>;

export const USER_REQUEST = "Note on the acme-corp account that they want a demo next Tuesday.";
export const SEARCH_QUERY = "write a note on a CRM account";
export const NOTE = { account: "acme-corp", text: "Wants a demo next Tuesday." };
export const ANSWER_WRITTEN = "Done: the note about next Tuesday's demo is on the acme-corp account.";
export const ANSWER_DECLINED = "I did not write the note, since you declined it.";

const usage: ModelTurn["usage"] = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

function callsTool(toolCallId: string, toolName: string, input: unknown): ModelTurn {
  return {
    content: [{ type: "tool-call", toolCallId, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: "tool-calls", raw: undefined },
    usage,
    warnings: [],
  };
}

function says(text: string): ModelTurn {
  return {
    content: [{ type: "text", text }],
    finishReason: { unified: "stop", raw: undefined },
    usage,
    warnings: [],
  };
}

/** The newest tool result in the prompt: what the model just read. */
function lastToolResult(prompt: ModelCall["prompt"]): ToolResult | undefined {
  const results = prompt.flatMap((message) =>
    message.role === "tool"
      ? message.content.filter((part): part is ToolResult => part.type === "tool-result")
      : [],
  );
  return results.at(-1);
}

function nextTurn({ prompt }: ModelCall): ModelTurn {
  const last = lastToolResult(prompt);
  if (!last) return callsTool("call-find", "find_tools", { query: SEARCH_QUERY });
  const { output } = last;
  if (last.toolName === "find_tools") {
    // find_tools lists its matches best first, one "- name (effect…): description" line each.
    const found = output.type === "text" ? /^- ([a-z0-9_]+) /m.exec(output.value)?.[1] : undefined;
    if (!found) return says("I found no tool that writes CRM notes.");
    return callsTool("call-execute", "execute_tool", { name: found, arguments: NOTE });
  }
  if (output.type === "execution-denied") return says(ANSWER_DECLINED);
  if (output.type === "error-text") return says(`The note was not written: ${output.value}`);
  return says(ANSWER_WRITTEN);
}

export function createScriptedModel(): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: async (call) => nextTurn(call) });
}
