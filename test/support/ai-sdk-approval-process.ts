/**
 * @module One process of an AI SDK run that a human approves in another. `ask` runs generateText until the
 * SDK stops at its approval request and saves the history (the user's message and `response.messages`) in
 * `<dir>/messages.json`, as a server keeps a chat; `approve` and `deny` load it, append the app's answer and
 * call generateText again. Every process opens the durable harness in `dir`, signs and checks approvals
 * with the same secret, and prints a JSON report, including the `ai` version it ran.
 *
 * Usage: node --import tsx test/support/ai-sdk-approval-process.ts <dir> ask|approve|deny <approver>
 */
import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { generateText, type ModelMessage, stepCountIs } from "ai";
import { MockLanguageModelV3 } from "ai/test";
import { aiSdkTools } from "../../src/adapters/ai-sdk/ai-sdk-tools.js";
import { callsTools, says, toolOutputsSeen } from "./ai-sdk-scripted-model.js";
import { durableAdapterHarness } from "./durable-adapter-harness.js";

const [dir, step, approver] = process.argv.slice(2);
if (dir === undefined || (step !== "ask" && step !== "approve" && step !== "deny") || !approver) {
  throw new Error("usage: ai-sdk-approval-process.ts <dir> ask|approve|deny <approver>");
}

const history = join(dir, "messages.json");
const harness = durableAdapterHarness(dir);
const tools = aiSdkTools({ seam: harness.seam, context: harness.context, approver });
const run = {
  tools,
  stopWhen: stepCountIs(5),
  experimental_toolApprovalSecret: "a secret both processes hold",
};
const aiVersion = (createRequire(import.meta.url)("ai/package.json") as { version: string }).version;

if (step === "ask") {
  const model = new MockLanguageModelV3({
    doGenerate: [callsTools({ id: "call-send", name: "send_email", input: { to: "bob" } }), says("sent")],
  });
  const messages: ModelMessage[] = [{ role: "user", content: "email bob" }];
  const result = await generateText({ model, messages, ...run });
  writeFileSync(history, JSON.stringify([...messages, ...result.response.messages]));
  const requests = result.content.filter((part) => part.type === "tool-approval-request");
  console.log(
    JSON.stringify({
      aiVersion,
      approvalRequests: requests.map((request) => request.toolCall.toolName),
      modelTurns: model.doGenerateCalls.length,
    }),
  );
} else {
  const saved = JSON.parse(readFileSync(history, "utf8")) as ModelMessage[];
  const request = saved
    .flatMap((message) =>
      message.role === "assistant" && Array.isArray(message.content) ? message.content : [],
    )
    .find((part) => part.type === "tool-approval-request");
  if (!request) throw new Error(`no approval request in ${history}`);
  const answer: ModelMessage = {
    role: "tool",
    content: [
      {
        type: "tool-approval-response",
        approvalId: request.approvalId,
        approved: step === "approve",
        reason: step === "approve" ? undefined : "not today",
      },
    ],
  };
  const model = new MockLanguageModelV3({ doGenerate: [says(step === "approve" ? "sent" : "not sent")] });
  const result = await generateText({ model, messages: [...saved, answer], ...run });
  console.log(JSON.stringify({ aiVersion, toolOutputsSeen: toolOutputsSeen(model, 0), text: result.text }));
}
harness.close();
