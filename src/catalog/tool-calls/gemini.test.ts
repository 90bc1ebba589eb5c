import { describe, expect, it } from "vitest";
import { approvalIdOf } from "../../seam/envelope.js";
import { createScriptedTool } from "../../test/scripted-tool.js";
import { createTestHarness } from "../../test/test-harness.js";
import { calculateTool, thinkTool } from "../../tools/general/index.js";
import { runToolCalls } from "./run-tool-calls.js";

function setup() {
  const sendMessage = createScriptedTool(["sent"], { name: "send_message", effect: "external-write" });
  const { seam, context } = createTestHarness([calculateTool, thinkTool, sendMessage]);
  const seen: string[] = [];
  const run = (message: unknown) =>
    runToolCalls({
      seam,
      provider: "gemini",
      message,
      context: (id) => {
        seen.push(id);
        return context({ toolCallId: id });
      },
    });
  return { run, sendMessage, seen };
}

const model = (...parts: unknown[]) => ({ role: "model", parts });
const functionCall = (name: unknown, args: unknown, id?: string) => ({
  functionCall: { name, args, ...(id === undefined ? {} : { id }) },
});
const output = (name: string, text: unknown, id?: string) => ({
  functionResponse: { name, ...(id === undefined ? {} : { id }), response: { output: text } },
});
const error = (name: string, code: string, message: unknown, id?: string) => ({
  functionResponse: { name, ...(id === undefined ? {} : { id }), response: { error: { code, message } } },
});
const reply = (...parts: unknown[]) => [{ role: "user", parts }];

describe("gemini: functionCall parts in, one user content of functionResponse parts out", () => {
  it("runs every call, echoing ids only where the call had one", async () => {
    const { run, seen } = setup();
    const { rendered } = await run(
      model(
        { text: "Working on it." },
        functionCall("calculate", { expression: "sqrt(144)" }),
        functionCall("think", { thought: "twelve squared" }, "fc-2"),
      ),
    );
    expect(rendered).toEqual(reply(output("calculate", "12"), output("think", "Noted.", "fc-2")));
    // Without an id from Gemini, the seam gets a stable one made from position and content.
    expect(seen).toEqual([expect.stringMatching(/^gemini-0-[0-9a-f]{12}$/), "fc-2"]);
    const [firstId] = seen;
    await run(model(functionCall("calculate", { expression: "sqrt(144)" })));
    expect(seen[2]).toBe(firstId);
  });

  it("parses args sent as JSON text, and says where malformed JSON broke", async () => {
    const { run } = setup();
    const { rendered } = await run(
      model(functionCall("calculate", '{"expression":"10%3"}'), functionCall("calculate", '{"expression"')),
    );
    expect(rendered).toEqual(
      reply(
        output("calculate", "1"),
        error(
          "calculate",
          "invalid_input",
          expect.stringMatching(
            /^error invalid_input: the arguments for calculate are not valid JSON \(.*position 13\b.*\); send them again as one JSON object/,
          ),
        ),
      ),
    );
  });

  it("answers an unknown tool and an invented argument under response.error", async () => {
    const { run } = setup();
    const { rendered } = await run(
      model(
        functionCall("calc", { expression: "1" }, "fc-1"),
        functionCall("think", { thought: "x", private: true }),
      ),
    );
    expect(rendered).toEqual(
      reply(
        error(
          "calc",
          "unknown_tool",
          'error unknown_tool: no tool named "calc" is available to you. Did you mean calculate?',
          "fc-1",
        ),
        error(
          "think",
          "invalid_input",
          'error invalid_input: invalid input for think: unknown argument "private"; it takes thought',
        ),
      ),
    );
  });

  it("answers a call that needs approval with its parked approval id", async () => {
    const { run, sendMessage } = setup();
    const { rendered, results } = await run(model(functionCall("send_message", { to: "bob" })));
    const approvalId = approvalIdOf(results[0]!.envelope);
    expect(rendered).toEqual(
      reply(
        error(
          "send_message",
          "approval_required",
          `error approval_required: send_message needs a human's approval and has not run. It is parked as approval ${approvalId}; tell the user, and do not call it again`,
        ),
      ),
    );
    expect(sendMessage.calls).toHaveLength(0);
  });

  it("sends nothing back for a content without functionCall parts", async () => {
    const { run } = setup();
    for (const message of [null, 0, { parts: {} }, model({ text: "done" }), model()]) {
      expect(await run(message)).toEqual({ results: [], rendered: [] });
    }
  });

  it("never throws on hostile functionCall parts", async () => {
    const { run } = setup();
    const { rendered } = await run(
      model({ functionCall: null }, functionCall(12, {}), functionCall("calculate", "not json", "fc-3"), 5),
    );
    const noName = (kind: string) =>
      `error invalid_input: this tool call has no name (it is ${kind}); name the tool to call as a string`;
    expect(rendered).toEqual(
      reply(
        error("", "invalid_input", noName("missing")),
        error("", "invalid_input", noName("a number")),
        error(
          "calculate",
          "invalid_input",
          expect.stringMatching(/^error invalid_input: the arguments for calculate are not valid JSON/),
          "fc-3",
        ),
      ),
    );
  });
});
