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
    runToolCalls({
      seam,
      provider: "openai-responses",
      message,
      context: (id) => context({ toolCallId: id }),
    });
  return { run, sendMessage };
}

const functionCall = (callId: unknown, name: unknown, args: unknown) => ({
  type: "function_call",
  id: `fc_${String(callId)}`,
  call_id: callId,
  name,
  arguments: args,
  status: "completed",
});
const output = (callId: unknown, text: unknown) => ({
  type: "function_call_output",
  call_id: callId,
  output: text,
});

describe("openai-responses: function_call items in, function_call_output items out", () => {
  it("runs the function calls among the output items and answers each by call_id, in order", async () => {
    const { run } = setup();
    const { rendered } = await run([
      { type: "reasoning", id: "rs_1", summary: [] },
      functionCall("call_a", "calculate", '{"expression":"2^10"}'),
      { type: "message", role: "assistant", content: [{ type: "output_text", text: "thinking…" }] },
      functionCall("call_b", "think", '{"thought":"powers of two"}'),
    ]);
    expect(rendered).toEqual([output("call_a", "1024"), output("call_b", "Noted.")]);
  });

  it("answers malformed JSON by saying where it broke", async () => {
    const { run } = setup();
    const { rendered } = await run([functionCall("call_a", "calculate", "{expression: 1}")]);
    expect(rendered).toEqual([
      output(
        "call_a",
        expect.stringMatching(
          /^error invalid_input: the arguments for calculate are not valid JSON \(.*at position 1\b.*\); send them again as one JSON object/,
        ),
      ),
    ]);
  });

  it("answers an unknown tool with the nearest names, and an invented argument by naming it", async () => {
    const { run } = setup();
    const { rendered } = await run([
      functionCall("call_a", "thinker", '{"thought":"x"}'),
      functionCall("call_b", "think", '{"thought":"x","confidence":0.9}'),
    ]);
    expect(rendered).toEqual([
      output(
        "call_a",
        'error unknown_tool: no tool named "thinker" is available to you. Did you mean think?',
      ),
      output(
        "call_b",
        'error invalid_input: invalid input for think: unknown argument "confidence"; it takes thought',
      ),
    ]);
  });

  it("answers a call that needs approval with its parked approval id", async () => {
    const { run, sendMessage } = setup();
    const { rendered, results } = await run([functionCall("call_a", "send_message", '{"to":"bob"}')]);
    const approvalId = approvalIdOf(results[0]!.envelope);
    expect(rendered).toEqual([
      output("call_a", expect.stringContaining(`It is parked as approval ${approvalId}; tell the user`)),
    ]);
    expect(rendered[0]!.output).toMatch(/^error approval_required: /);
    expect(sendMessage.calls).toHaveLength(0);
  });

  it("never throws on hostile shapes", async () => {
    const { run } = setup();
    for (const message of [null, "x", { output: [] }, [null, 1, "function_call", { type: "message" }]]) {
      expect(await run(message)).toEqual({ results: [], rendered: [] });
    }
    const { rendered } = await run([
      functionCall(["call_a"], "calculate", "{}"),
      functionCall("call_b", { name: "calculate" }, "{}"),
      functionCall("call_c", "calculate", "3"),
    ]);
    expect(rendered).toEqual([
      output(
        expect.stringMatching(/^openai-responses-0-[0-9a-f]{12}$/),
        "error invalid_input: this call to calculate has no id (it is an array), so its result could not be matched to it; it was not run",
      ),
      output(
        "call_b",
        "error invalid_input: this tool call has no name (it is an object); name the tool to call as a string",
      ),
      output(
        "call_c",
        'error invalid_input: the arguments for calculate are a number, not a JSON object; send them again as one JSON object, e.g. {"name": "value"}',
      ),
    ]);
  });
});
