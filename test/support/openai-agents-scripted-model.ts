/** @module A scripted OpenAI Agents SDK model for the adapter's tests, in the test process or a child one. */
import type { AgentOutputItem, Model, ModelRequest, ModelResponse } from "@openai/agents-core";
import { Usage } from "@openai/agents-core";

/** A model that answers from a script, one response per turn, and keeps every request it was sent. */
export class ScriptedModel implements Model {
  readonly requests: ModelRequest[] = [];
  readonly #turns: AgentOutputItem[][];

  constructor(turns: AgentOutputItem[][]) {
    this.#turns = [...turns];
  }

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const output = this.#turns.shift();
    if (!output) throw new Error("the model's script ran out");
    return { usage: new Usage(), output };
  }

  getStreamedResponse(): AsyncIterable<never> {
    throw new Error("the scripted model does not stream");
  }

  /** The tool results the model was sent on a turn (the last by default), as text by call id. */
  toolResults(turn = this.requests.length - 1): Record<string, string> {
    const input = this.requests[turn]?.input;
    const results: Record<string, string> = {};
    for (const item of Array.isArray(input) ? input : []) {
      if (item.type !== "function_call_result") continue;
      const output = item.output;
      results[item.callId] =
        typeof output === "string" ? output : "text" in output ? String(output.text) : JSON.stringify(output);
    }
    return results;
  }
}

/** The model asking for a tool call. */
export function functionCall(callId: string, name: string, args: unknown): AgentOutputItem {
  return { type: "function_call", callId, name, arguments: JSON.stringify(args), status: "completed" };
}

/** The model's final answer. */
export function reply(text: string): AgentOutputItem {
  return {
    type: "message",
    role: "assistant",
    status: "completed",
    content: [{ type: "output_text", text }],
  };
}
