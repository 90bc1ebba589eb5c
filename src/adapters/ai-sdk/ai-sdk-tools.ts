/** @module The catalogue as an AI SDK tool set, every call through the seam. */

import { dynamicTool, type JSONSchema7, jsonSchema, type ToolSet } from "ai";
import { descriptionForModel } from "../../catalog/model-description.js";
import { adaptedTools, FrameworkApprovals, type SeamAdapterOptions } from "../seam-bridge.js";
import { envelopeModelOutput } from "./envelope-model-output.js";

/**
 * The tools the caller may see, as AI SDK tools. A call runs through the seam under the SDK's tool-call
 * id; its result is the envelope (the data stays with the app), which the model reads as text. The
 * seam's approval step becomes the SDK's `needsApproval`, and an approved call is approved as
 * `options.approver` and resumed once (see FrameworkApprovals). A host that takes the message history from a client should set
 * the SDK's `experimental_toolApprovalSecret`, or the client can forge a call together with its approval.
 */
export function aiSdkTools(options: SeamAdapterOptions): ToolSet {
  const approvals = new FrameworkApprovals(options);
  const tools: ToolSet = {};
  for (const tool of adaptedTools(options)) {
    const name = tool.name;
    tools[name] = dynamicTool({
      description: descriptionForModel(tool),
      // No validator on purpose: the seam validates, and its refusal tells the model how to correct itself.
      inputSchema: jsonSchema(tool.inputJsonSchema as JSONSchema7),
      needsApproval: (input, { toolCallId }) => approvals.needsApproval(name, input, toolCallId),
      execute: (input, { toolCallId }) => approvals.execute(name, input, toolCallId),
      toModelOutput: ({ output }) => envelopeModelOutput(output),
    });
  }
  return tools;
}
