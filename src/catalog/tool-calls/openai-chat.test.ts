import { describe, expect, it } from "vitest";
import { approvalIdOf } from "../../seam/envelope.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness } from "../../test/test-harness.js";
import { calculateTool, thinkTool } from "../../tools/general/index.js";
import { runToolCalls } from "./run-tool-calls.js";

function setup() {
  const sendMessage = createScriptedTool(["sent"], { name: "send_message", effect: "external-write" });
  const { seam, context } = createTestHarness([calculateTool, thinkTool, sendMessage]);
  const run = (message: unknown) =>
    runToolCalls({ seam, provider: "openai-chat", message, context: (id) => context({ toolCallId: id }) });
  return { run, sendMessage };
}

const call = (id: unknown, name: unknown, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: args },
});
const assistant = (...toolCalls: unknown[]) => ({ role: "assistant", content: null, tool_calls: toolCalls });
const answer = (toolCallId: unknown, content: unknown) => ({
  role: "tool",
  tool_call_id: toolCallId,
  content,
});

describe("openai-chat: tool_calls in, tool messages out", () => {
  it("runs every call and answers each with a tool message, in call order", async () => {
    const { run } = setup();
    const { rendered, results } = await run(
      assistant(
        call("call_a", "calculate", '{"expression":"2*(3+4)^2"}'),
        call("call_b", "think", '{"thought":"check the square"}'),
      ),
    );
    expect(rendered).toEqual([answer("call_a", "98"), answer("call_b", "Noted.")]);
    expect(results.map(({ envelope }) => envelope.ok)).toEqual([true, true]);
  });

  it("also takes arguments already parsed into an object", async () => {
    const { run } = setup();
    const { rendered } = await run(assistant(call("call_a", "calculate", { expression: "1/4" })));
    expect(rendered).toEqual([answer("call_a", "0.25")]);
  });

  it("answers malformed JSON by saying where it broke, and asks for an object", async () => {
    const { run } = setup();
    const { rendered } = await run(assistant(call("call_a", "calculate", '{"expression": "1+1"')));
    expect(rendered).toEqual([
      answer(
        "call_a",
        expect.stringMatching(
          /^error invalid_input: the arguments for calculate are not valid JSON \(.*at position 20\b.*\); send them again as one JSON object/,
        ),
      ),
    ]);
  });

  it("answers an unknown tool with the nearest names", async () => {
    const { run } = setup();
    const { rendered } = await run(assistant(call("call_a", "calculator", '{"expression":"1"}')));
    expect(rendered).toEqual([
      answer(
        "call_a",
        'error unknown_tool: no tool named "calculator" is available to you. Did you mean calculate?',
      ),
    ]);
  });

  it("answers a hallucinated extra argument by naming it and what the tool takes", async () => {
    const { run } = setup();
    const { rendered } = await run(
      assistant(call("call_a", "calculate", '{"expression":"1+1","dry_run":true}')),
    );
    expect(rendered).toEqual([
      answer(
        "call_a",
        'error invalid_input: invalid input for calculate: unknown argument "dry_run"; it takes expression',
      ),
    ]);
  });

  it("answers a call that needs approval with its parked approval id, without running it", async () => {
    const { run, sendMessage } = setup();
    const { rendered, results } = await run(
      assistant(call("call_a", "send_message", '{"to":"bob","text":"hi"}')),
    );
    const approvalId = approvalIdOf(results[0]!.envelope);
    expect(approvalId).toEqual(expect.any(String));
    expect(rendered).toEqual([
      answer(
        "call_a",
        `error approval_required: send_message needs a human's approval and has not run. It is parked as approval ${approvalId}; tell the user, and do not call it again`,
      ),
    ]);
    expect(sendMessage.calls).toHaveLength(0);
  });

  it("reads a message without readable tool_calls as no calls", async () => {
    const { run } = setup();
    for (const message of [null, "hi", 42, [], { role: "assistant", content: "hi" }, { tool_calls: {} }]) {
      expect(await run(message)).toEqual({ results: [], rendered: [] });
    }
  });

  it("answers every unreadable entry of tool_calls, and runs the readable ones", async () => {
    const { run } = setup();
    const noName = (kind: string) =>
      `error invalid_input: this tool call has no name (it is ${kind}); name the tool to call as a string`;
    const { rendered } = await run(
      assistant(
        null,
        call("call_b", 42, "{}"),
        call("call_c", "calculate", "[1]"),
        call(undefined, "calculate", '{"expression":"1"}'),
        call("call_e", "calculate", '{"expression":"3*3"}'),
      ),
    );
    expect(rendered).toEqual([
      answer(expect.stringMatching(/^openai-chat-0-[0-9a-f]{12}$/), noName("missing")),
      answer("call_b", noName("a number")),
      answer(
        "call_c",
        'error invalid_input: the arguments for calculate are an array, not a JSON object; send them again as one JSON object, e.g. {"name": "value"}',
      ),
      answer(
        expect.stringMatching(/^openai-chat-3-[0-9a-f]{12}$/),
        "error invalid_input: this call to calculate has no id (it is missing), so its result could not be matched to it; it was not run",
      ),
      answer("call_e", "9"),
    ]);
  });
});
