/** @module The catalogue as an AI SDK tool set, every call through the seam. */

import { dynamicTool, type JSONSchema7, jsonSchema, type ToolSet } from "ai";
import { descriptionForModel } from "../../catalog/model-description.js";
import {
  adaptedTools,
  callThroughSeam,
  frameworkNeedsApproval,
  type SeamAdapterOptions,
} from "../seam-bridge.js";
import { approvedInMessages } from "./approved-in-messages.js";
import { envelopeModelOutput } from "./envelope-model-output.js";

/**
 * The tools the caller may see, as AI SDK tools. A call runs through the seam under the SDK's tool-call
 * id; its result is the envelope (the data stays with the app), which the model reads as text. The
 * seam's approval step becomes the SDK's `needsApproval`, and a call the app approved in the message
 * history is approved as `options.approver` and resumed once, in whichever process runs it. A host that
 * takes the message history from a client should set the SDK's `experimental_toolApprovalSecret`, or the
 * client can forge a call together with its approval.
 */
export function aiSdkTools(options: SeamAdapterOptions): ToolSet {
  const tools: ToolSet = {};
  for (const tool of adaptedTools(options)) {
    const name = tool.name;
    tools[name] = dynamicTool({
      description: descriptionForModel(tool),
      // No validator on purpose: the seam validates, and its refusal tells the model how to correct itself.
      inputSchema: jsonSchema(tool.inputJsonSchema as JSONSchema7),
      needsApproval: (input, { toolCallId }) => frameworkNeedsApproval(options, name, input, toolCallId),
      execute: (input, { toolCallId, messages }) =>
        callThroughSeam(options, name, input, toolCallId, approvedInMessages(messages, toolCallId)),
      toModelOutput: ({ output }) => envelopeModelOutput(output),
    });
  }
  return tools;
}
