import { Agent, type Model, Runner } from "@openai/agents-core";
import { describe, expect, it } from "vitest";
import { adapterTestHarness } from "../../../test/support/adapter-tools.js";
import { functionCall, reply, ScriptedModel } from "../../../test/support/openai-agents-scripted-model.js";
import { calculateTool } from "../../tools/general/index.js";
import type { SeamAdapterOptions } from "../seam-bridge.js";
import { openAIAgentsTools } from "./openai-agents-tools.js";

function setup(overrides: Partial<SeamAdapterOptions> = {}) {
  const { harness, send, wipe } = adapterTestHarness();
  const tools = openAIAgentsTools({
    seam: harness.seam,
    context: (toolCallId) => harness.context({ toolCallId }),
    approver: "alice",
    ...overrides,
  });
  const agentFor = (model: Model) => new Agent({ name: "assistant", model, tools });
  return { harness, send, wipe, tools, agentFor, runner: new Runner({ tracingDisabled: true }) };
}

describe("openAIAgentsTools", () => {
  it("offers the tools the caller may see, with their JSON Schema, non-strict", () => {
    const { tools } = setup();
    expect(tools.map((tool) => tool.name)).toEqual(["calculate", "send_email"]);
    const calculate = tools.find((tool) => tool.name === "calculate");
    expect(calculate?.parameters).toEqual(calculateTool.inputJsonSchema);
    expect(calculate?.strict).toBe(false);
  });

  it("runs a read call through the seam and hands the model its text", async () => {
    const { harness, agentFor, runner } = setup();
    const model = new ScriptedModel([
      [functionCall("call_1", "calculate", { expression: "2*(3+4)^2" })],
      [reply("98")],
    ]);
    const result = await runner.run(agentFor(model), "what is 2*(3+4)^2?");
    expect(result.interruptions).toEqual([]);
    expect(model.toolResults()).toEqual({ call_1: "98" });
    const audit = await harness.stores.audit.list({ tenantId: "t1" });
    expect(audit.map((event) => [event.kind, event.toolCallId, event.tool])).toContainEqual([
      "tool-call",
      "call_1",
      "calculate",
    ]);
  });

  it("an approved interruption runs the call once, approved in toolreg as the approver", async () => {
    const { harness, send, agentFor, runner } = setup();
    const model = new ScriptedModel([
      [functionCall("call_1", "send_email", { to: "bob@example.com" })],
      [reply("sent it")],
    ]);
    const agent = agentFor(model);
    const paused = await runner.run(agent, "email bob");
    expect(paused.interruptions.map((item) => item.name)).toEqual(["send_email"]);
    expect(send.calls).toHaveLength(0);

    const [interruption] = paused.interruptions;
    paused.state.approve(interruption!);
    const resumed = await runner.run(agent, paused.state);

    expect(resumed.finalOutput).toBe("sent it");
    expect(send.calls).toHaveLength(1);
    expect(model.toolResults()).toEqual({ call_1: "sent" });
    const approvals = await harness.stores.approvals.list({ tenantId: "t1" });
    expect(approvals).toHaveLength(1);
    expect(approvals[0]).toMatchObject({
      toolName: "send_email",
      toolCallId: "call_1",
      status: "executed",
      decidedBy: "alice",
    });
  });

  it("a rejected interruption never runs the tool nor parks it", async () => {
    const { harness, send, agentFor, runner } = setup();
    const model = new ScriptedModel([
      [functionCall("call_1", "send_email", { to: "bob@example.com" })],
      [reply("not sent")],
    ]);
    const agent = agentFor(model);
    const paused = await runner.run(agent, "email bob");
    const [interruption] = paused.interruptions;
    paused.state.reject(interruption!);
    await runner.run(agent, paused.state);

    expect(send.calls).toHaveLength(0);
    expect(await harness.stores.approvals.list({ tenantId: "t1" })).toEqual([]);
    expect(model.toolResults().call_1).toMatch(/not approved/);
  });

  it("a tool the caller may not see is not offered, and a call to it is refused by name", async () => {
    const { wipe, agentFor } = setup();
    const model = new ScriptedModel([[functionCall("call_1", "wipe_tenant", {})], [reply("cannot")]]);
    const runner = new Runner({ tracingDisabled: true, toolNotFoundBehavior: "return_error_to_model" });
    await runner.run(agentFor(model), "wipe everything");

    const offered = model.requests[0]?.tools.map((tool) => tool.name);
    expect(offered).not.toContain("wipe_tenant");
    expect(model.toolResults().call_1).toContain("'wipe_tenant' not found");
    expect(wipe.calls).toHaveLength(0);
  });

  it("an invalid-input envelope reaches the model as text, and the corrected call runs", async () => {
    const { agentFor, runner } = setup();
    const model = new ScriptedModel([
      [functionCall("call_1", "calculate", { expression: 42 })],
      [functionCall("call_2", "calculate", { expression: "6*7" })],
      [reply("42")],
    ]);
    const result = await runner.run(agentFor(model), "what is 6*7?");

    expect(model.toolResults(1).call_1).toMatch(/^error invalid_input: .*expression/);
    expect(model.toolResults().call_2).toBe("42");
    expect(result.finalOutput).toBe("42");
  });

  it("without an approver the SDK never asks; the call parks in toolreg and the model hears the approval id", async () => {
    const { harness, send, agentFor, runner } = setup({ approver: undefined });
    const model = new ScriptedModel([
      [functionCall("call_1", "send_email", { to: "bob@example.com" })],
      [reply("waiting for approval")],
    ]);
    const result = await runner.run(agentFor(model), "email bob");

    expect(result.interruptions).toEqual([]);
    expect(send.calls).toHaveLength(0);
    const [parked] = await harness.stores.approvals.list({ tenantId: "t1" });
    expect(parked?.status).toBe("pending");
    expect(model.toolResults().call_1).toContain(`approval ${parked?.id}`);
  });

  it("an always-approve in the SDK approves each later call in toolreg as the approver, each run once", async () => {
    const { harness, send, agentFor, runner } = setup();
    const model = new ScriptedModel([
      [functionCall("call_1", "send_email", { to: "bob@example.com" })],
      [functionCall("call_2", "send_email", { to: "carol@example.com" })],
      [reply("both sent")],
    ]);
    const agent = agentFor(model);
    const paused = await runner.run(agent, "email bob and carol");
    const [interruption] = paused.interruptions;
    paused.state.approve(interruption!, { alwaysApprove: true });
    const resumed = await runner.run(agent, paused.state);

    expect(resumed.interruptions).toEqual([]);
    expect(send.calls).toHaveLength(2);
    const executed = await harness.stores.approvals.list({ tenantId: "t1", status: "executed" });
    expect(executed.map((approval) => [approval.toolCallId, approval.decidedBy]).sort()).toEqual([
      ["call_1", "alice"],
      ["call_2", "alice"],
    ]);
  });
});
