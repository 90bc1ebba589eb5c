import { AIMessage, type BaseMessage, HumanMessage, ToolMessage } from "@langchain/core/messages";
import { type DynamicStructuredTool, ToolInputParsingException } from "@langchain/core/tools";
import { describe, expect, it } from "vitest";
import { adapterTestHarness } from "../../../test/support/adapter-tools.js";
import { callTools, ScriptedChatModel } from "../../../test/support/langchain-scripted-model.js";
import { approvalIdOf, type Envelope } from "../../seam/envelope.js";
import { calculateTool } from "../../tools/general/index.js";
import type { SeamAdapterOptions } from "../seam-bridge.js";
import { langChainTools } from "./langchain-tools.js";
import { resumeApproved } from "./resume-approved.js";

/** The host's loop: model, then each tool call answered by its tool, until the model stops calling. */
async function converse(
  model: ScriptedChatModel,
  tools: DynamicStructuredTool[],
  messages: BaseMessage[],
): Promise<BaseMessage[]> {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const bound = model.bindTools(tools);
  for (;;) {
    const reply = await bound.invoke(messages);
    messages.push(reply);
    if (!reply.tool_calls?.length) return messages;
    for (const call of reply.tool_calls) {
      const tool = byName.get(call.name);
      if (!tool) throw new Error(`the model called ${call.name}, which was not offered`);
      messages.push(await tool.invoke({ ...call, type: "tool_call" }));
    }
  }
}

function toolMessages(messages: BaseMessage[]): ToolMessage[] {
  return messages.filter((message): message is ToolMessage => ToolMessage.isInstance(message));
}

function setup() {
  const { harness, send, wipe } = adapterTestHarness();
  // Read at every call, as a host reads the session's current rights.
  const caller = { scopes: [] as string[] };
  const options: SeamAdapterOptions = {
    seam: harness.seam,
    context: (toolCallId) => harness.context({ toolCallId, scopes: caller.scopes }),
  };
  return { harness, send, wipe, caller, options, tools: langChainTools(options) };
}

describe("langChainTools", () => {
  it("offers the tools the caller may see, with their name, description and JSON Schema", () => {
    const { tools } = setup();
    expect(tools.map((tool) => [tool.name, tool.description])).toEqual([
      ["calculate", calculateTool.description],
      ["send_email", "Sends an email."],
    ]);
    expect(tools[0]?.schema).toEqual(calculateTool.inputJsonSchema);
  });

  it("runs a read call through the seam and answers the tool call with a ToolMessage", async () => {
    const { tools } = setup();
    const model = new ScriptedChatModel([
      callTools(["call_1", "calculate", { expression: "2*(3+4)^2" }]),
      new AIMessage("98"),
    ]);
    const messages = await converse(model, tools, [new HumanMessage("what is 2*(3+4)^2?")]);

    expect(model.boundTools).toEqual(["calculate", "send_email"]);
    const [answer] = toolMessages(messages);
    expect(answer).toMatchObject({
      tool_call_id: "call_1",
      name: "calculate",
      status: "success",
      content: "98",
    });
    expect(answer?.artifact).toMatchObject({ ok: true, data: { value: "98" } });
    expect(model.received[1]).toContain(answer);
  });

  it("a parked call, approved by a human in toolreg, runs once and answers the same tool call", async () => {
    const { harness, send, options, tools } = setup();
    const model = new ScriptedChatModel([
      callTools(["call_1", "send_email", { to: "bob@example.com" }]),
      new AIMessage("It needs your approval."),
      new AIMessage("Sent."),
    ]);
    const messages = await converse(model, tools, [new HumanMessage("email bob")]);
    const [parked] = toolMessages(messages);
    expect(parked?.status).toBe("error");
    const approvalId = approvalIdOf(parked?.artifact as Envelope);
    expect(approvalId).toBeDefined();
    expect(parked?.content).toContain(`approval ${approvalId}`);
    expect(send.calls).toHaveLength(0);

    await harness.seam.approve({ tenantId: "t1", approvalId: approvalId!, by: "alice" });
    const resumed = await resumeApproved(options, { approvalId: approvalId!, toolCallId: "call_1" });
    const again = await resumeApproved(options, { approvalId: approvalId!, toolCallId: "call_1" });

    expect(resumed).toMatchObject({ tool_call_id: "call_1", status: "success", content: "sent" });
    expect(again.content).toBe("sent");
    expect(send.calls).toHaveLength(1);
    const [record] = await harness.stores.approvals.list({ tenantId: "t1" });
    expect(record).toMatchObject({ toolCallId: "call_1", status: "executed", decidedBy: "alice" });

    // The answer takes the parked message's place, and the conversation goes on from there.
    messages[messages.indexOf(parked!)] = resumed;
    messages.push(new HumanMessage("approved"));
    await converse(model, tools, messages);
    expect(model.received[2]).toContain(resumed);
    expect(model.received[2]).not.toContain(parked);
  });

  it("a denied approval never runs the tool, and the model hears so as an error", async () => {
    const { harness, send, options, tools } = setup();
    const [sendEmail] = tools.filter((tool) => tool.name === "send_email");
    const parked = (await sendEmail!.invoke({
      id: "call_1",
      name: "send_email",
      args: { to: "bob@example.com" },
      type: "tool_call",
    })) as ToolMessage;
    const approvalId = approvalIdOf(parked.artifact as Envelope)!;

    await harness.seam.deny({ tenantId: "t1", approvalId, by: "alice", note: "not to bob" });
    const answer = await resumeApproved(options, { approvalId, toolCallId: "call_1" });

    expect(answer.status).toBe("error");
    expect(answer.content).toMatch(/^error approval_denied: .*alice: not to bob/);
    expect(send.calls).toHaveLength(0);
  });

  it("a tool the caller may not see is not offered, and refused by name once it no longer may", async () => {
    const { wipe, caller, options, tools } = setup();
    expect(tools.map((tool) => tool.name)).not.toContain("wipe_tenant");

    caller.scopes = ["admin"];
    const wipeTenant = langChainTools(options).find((tool) => tool.name === "wipe_tenant");
    caller.scopes = [];
    const answer = (await wipeTenant!.invoke({
      id: "call_1",
      name: "wipe_tenant",
      args: {},
      type: "tool_call",
    })) as ToolMessage;

    expect(answer.status).toBe("error");
    expect(answer.content).toMatch(/^error unknown_tool: no tool named "wipe_tenant"/);
    expect(wipe.calls).toHaveLength(0);
  });

  it("an error envelope reaches the model as an error ToolMessage, and the corrected call runs", async () => {
    const { tools } = setup();
    const model = new ScriptedChatModel([
      callTools(["call_1", "calculate", { expression: "6*7", precision: 2 }]),
      callTools(["call_2", "calculate", { expression: "6*7" }]),
      new AIMessage("42"),
    ]);
    const messages = await converse(model, tools, [new HumanMessage("what is 6*7?")]);

    const [refused, answered] = toolMessages(messages);
    expect(refused?.status).toBe("error");
    expect(refused?.content).toMatch(/^error invalid_input: .*precision/);
    expect(model.received[1]).toContain(refused);
    expect(answered).toMatchObject({ status: "success", content: "42" });
  });

  it("LangChain refuses arguments that break the schema itself, before the seam sees the call", async () => {
    const { harness, tools } = setup();
    const call = tools[0]!.invoke({
      id: "call_1",
      name: "calculate",
      args: { expression: 42 },
      type: "tool_call",
    });
    await expect(call).rejects.toBeInstanceOf(ToolInputParsingException);
    expect(await harness.stores.audit.list({ tenantId: "t1" })).toEqual([]);
  });

  it("invoked with bare arguments, a tool answers with the envelope's text", async () => {
    const { tools } = setup();
    expect(await tools[0]!.invoke({ expression: "1+1" })).toBe("2");
  });
});
