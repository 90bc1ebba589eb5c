/**
 * @module One step of a LangChain agent run whose approval crosses processes, meant to run as its own child
 * process: `start` runs the agent until toolregApprovalMiddleware interrupts, `approve` or `reject` resumes
 * the same thread with that decision. Each opens the durable harness and a SQLite checkpointer in `dir`,
 * and prints what the test checks as one JSON line.
 *
 * Usage: node --import tsx langchain-approval-process.ts <dir> start|approve|reject
 */
import { join } from "node:path";
import { AIMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { Command } from "@langchain/langgraph";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { createAgent } from "langchain";
import { toolregApprovalMiddleware } from "../../src/adapters/langchain/approval-middleware.js";
import { langChainTools } from "../../src/adapters/langchain/langchain-tools.js";
import type { SeamAdapterOptions } from "../../src/adapters/seam-bridge.js";
import { durableAdapterHarness } from "./durable-adapter-harness.js";
import { callTools, ScriptedChatModel } from "./langchain-scripted-model.js";

const [dir, step] = process.argv.slice(2);
if (dir === undefined || (step !== "start" && step !== "approve" && step !== "reject")) {
  throw new Error("usage: langchain-approval-process.ts <dir> start|approve|reject");
}

const harness = durableAdapterHarness(dir);
const checkpointer = SqliteSaver.fromConnString(join(dir, "checkpoints.db"));
const options: SeamAdapterOptions = { seam: harness.seam, context: harness.context, approver: "alice" };
// Each process plays its own turn of the model: the call before the interrupt, the reply after it.
const model = new ScriptedChatModel(
  step === "start"
    ? [callTools(["call_1", "send_email", { to: "bob@example.com" }])]
    : [new AIMessage("done")],
);
const agent = createAgent({
  model,
  tools: langChainTools(options),
  middleware: [...toolregApprovalMiddleware(options)],
  checkpointer,
});
const thread = { configurable: { thread_id: "thread-1" } };

const result =
  step === "start"
    ? await agent.invoke({ messages: [new HumanMessage("email bob")] }, thread)
    : await agent.invoke(new Command({ resume: { decisions: [{ type: step }] } }), thread);

console.log(
  JSON.stringify({
    interrupts: result.__interrupt__?.map((pending) => pending.value) ?? [],
    toolMessages: result.messages
      .filter((message) => ToolMessage.isInstance(message))
      .map((message) => ({
        toolCallId: message.tool_call_id,
        status: message.status,
        content: message.text,
      })),
    reply: result.messages.at(-1)?.text,
  }),
);
checkpointer.db.close();
harness.close();
