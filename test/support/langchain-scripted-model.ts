/**
 * @module A LangChain chat model that answers from a script, for the LangChain adapter's tests and their
 * child processes. LangChain's own fakes cannot play a tool loop: FakeListChatModel answers text only,
 * and FakeStreamingChatModel repeats the same tool calls on every turn.
 */
import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import type { DynamicStructuredTool } from "@langchain/core/tools";

/** Answers one AIMessage per turn, and keeps what it was sent and which tools were bound. */
export class ScriptedChatModel extends BaseChatModel {
  readonly received: BaseMessage[][] = [];
  boundTools: string[] = [];
  readonly #turns: AIMessage[];

  constructor(turns: AIMessage[]) {
    super({});
    this.#turns = [...turns];
  }

  _llmType(): string {
    return "scripted";
  }

  override bindTools(tools: DynamicStructuredTool[]): this {
    this.boundTools = tools.map((tool) => tool.name);
    return this;
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.received.push(messages);
    const message = this.#turns.shift();
    if (!message) throw new Error("the model's script ran out");
    return { generations: [{ message, text: message.text }] };
  }
}

/** A model's turn that calls tools: `[id, name, args]` each. */
export function callTools(...calls: [id: string, name: string, args: Record<string, unknown>][]): AIMessage {
  return new AIMessage({
    content: "",
    tool_calls: calls.map(([id, name, args]) => ({ id, name, args, type: "tool_call" as const })),
  });
}
