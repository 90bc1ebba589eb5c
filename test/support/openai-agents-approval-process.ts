/**
 * @module One step of an OpenAI Agents run whose approval crosses processes, meant to run as its own child
 * process over the durable harness in `dir`. `start` runs the agent until the SDK interrupts for approval
 * and saves the RunState in `dir`; `approve` or `reject` loads that state in a fresh process, decides every
 * interruption so, and resumes. Prints what the test checks as one JSON line.
 *
 * Usage: node --import tsx openai-agents-approval-process.ts <dir> start|approve|reject <approver>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Agent, Runner, RunState } from "@openai/agents-core";
import { openAIAgentsTools } from "../../src/adapters/openai-agents/index.js";
import { durableAdapterHarness } from "./durable-adapter-harness.js";
import { functionCall, reply, ScriptedModel } from "./openai-agents-scripted-model.js";

const [dir, step, approver] = process.argv.slice(2);
if (!dir || !approver || (step !== "start" && step !== "approve" && step !== "reject")) {
  throw new Error("usage: openai-agents-approval-process.ts <dir> start|approve|reject <approver>");
}

const savedState = join(dir, "run-state.json");
// Each process scripts only the turns it is asked for: the call before the interruption, the answer after.
const model = new ScriptedModel(
  step === "start" ? [[functionCall("call_1", "send_email", { to: "bob@example.com" })]] : [[reply("done")]],
);
const harness = durableAdapterHarness(dir);
const agent = new Agent({
  name: "assistant",
  model,
  tools: openAIAgentsTools({ seam: harness.seam, context: harness.context, approver }),
});
const runner = new Runner({ tracingDisabled: true });

try {
  if (step === "start") {
    const paused = await runner.run(agent, "email bob");
    writeFileSync(savedState, paused.state.toString());
    console.log(JSON.stringify({ interruptions: paused.interruptions.map((item) => item.name) }));
  } else {
    const state = await RunState.fromString(agent, readFileSync(savedState, "utf8"));
    for (const interruption of state.getInterruptions()) {
      if (step === "approve") state.approve(interruption);
      else state.reject(interruption);
    }
    const resumed = await runner.run(agent, state);
    console.log(
      JSON.stringify({
        interruptions: resumed.interruptions.map((item) => item.name),
        toolResults: model.toolResults(),
        finalOutput: resumed.finalOutput,
      }),
    );
  }
} finally {
  harness.close();
}
