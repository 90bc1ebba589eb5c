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
    runToolCalls({ seam, provider: "anthropic", message, context: (id) => context({ toolCallId: id }) });
  return { run, sendMessage };
}

const toolUse = (id: unknown, name: unknown, input: unknown) => ({ type: "tool_use", id, name, input });
const assistant = (...content: unknown[]) => ({ role: "assistant", content });
const result = (toolUseId: unknown, content: unknown, isError = false) => ({
  type: "tool_result",
  tool_use_id: toolUseId,
  content,
  ...(isError ? { is_error: true } : {}),
});
const reply = (...content: unknown[]) => [{ role: "user", content }];

describe("anthropic: tool_use blocks in, one user message of tool_result blocks out", () => {
  it("runs every tool_use block and answers them all in one user message, in call order", async () => {
    const { run } = setup();
    const { rendered } = await run(
      assistant(
        { type: "text", text: "Let me work that out." },
        toolUse("toolu_01", "calculate", { expression: "round(100/3, 2)" }),
        toolUse("toolu_02", "think", { thought: "a third of a hundred" }),
      ),
    );
    expect(rendered).toEqual(reply(result("toolu_01", "33.33"), result("toolu_02", "Noted.")));
  });

  it("parses input sent as JSON text, and says where malformed JSON broke", async () => {
    const { run } = setup();
    const { rendered } = await run(
      assistant(
        toolUse("toolu_01", "calculate", '{"expression":"7*6"}'),
        toolUse("toolu_02", "calculate", '{"expression":"7*6"}}'),
      ),
    );
    expect(rendered).toEqual(
      reply(
        result("toolu_01", "42"),
        result(
          "toolu_02",
          expect.stringMatching(
            /^error invalid_input: the arguments for calculate are not valid JSON \(.*at position 20\b.*\); send them again as one JSON object/,
          ),
          true,
        ),
      ),
    );
  });

  it("flags an unknown tool and an invented argument as errors, with nearest names and the argument named", async () => {
    const { run } = setup();
    const { rendered } = await run(
      assistant(
        toolUse("toolu_01", "Calculate", { expression: "1" }),
        toolUse("toolu_02", "calculate", { expression: "1", precision: 2 }),
      ),
    );
    expect(rendered).toEqual(
      reply(
        result(
          "toolu_01",
          'error unknown_tool: no tool named "Calculate" is available to you. Did you mean calculate?',
          true,
        ),
        result(
          "toolu_02",
          'error invalid_input: invalid input for calculate: unknown argument "precision"; it takes expression',
          true,
        ),
      ),
    );
  });

  it("answers a call that needs approval with its parked approval id, flagged as an error", async () => {
    const { run, sendMessage } = setup();
    const { rendered, results } = await run(assistant(toolUse("toolu_01", "send_message", { to: "bob" })));
    const approvalId = approvalIdOf(results[0]!.envelope);
    expect(rendered).toEqual(
      reply(
        result(
          "toolu_01",
          `error approval_required: send_message needs a human's approval and has not run. It is parked as approval ${approvalId}; tell the user, and do not call it again`,
          true,
        ),
      ),
    );
    expect(sendMessage.calls).toHaveLength(0);
  });

  it("sends nothing back for a message without tool_use blocks, rather than an empty user message", async () => {
    const { run } = setup();
    for (const message of [
      null,
      "x",
      { content: "hi" },
      assistant({ type: "text", text: "done" }),
      assistant(),
    ]) {
      expect(await run(message)).toEqual({ results: [], rendered: [] });
    }
  });

  it("never throws on hostile tool_use blocks", async () => {
    const { run } = setup();
    const { rendered } = await run(
      assistant(
        null,
        7,
        toolUse(null, "calculate", {}),
        toolUse("toolu_02", ["calculate"], {}),
        toolUse("toolu_03", "calculate", [{ expression: "1" }]),
      ),
    );
    expect(rendered).toEqual(
      reply(
        result(
          expect.stringMatching(/^anthropic-0-[0-9a-f]{12}$/),
          "error invalid_input: this call to calculate has no id (it is null), so its result could not be matched to it; it was not run",
          true,
        ),
        result(
          "toolu_02",
          "error invalid_input: this tool call has no name (it is an array); name the tool to call as a string",
          true,
        ),
        result(
          "toolu_03",
          'error invalid_input: the arguments for calculate are an array, not a JSON object; send them again as one JSON object, e.g. {"name": "value"}',
          true,
        ),
      ),
    );
  });
});
