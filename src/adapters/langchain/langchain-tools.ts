/** @module The catalogue as LangChain structured tools, every call through the seam. */

import { randomUUID } from "node:crypto";
import { type DynamicStructuredTool, tool } from "@langchain/core/tools";
import type { JSONSchema } from "@langchain/core/utils/json_schema";
import { descriptionForModel } from "../../catalog/model-description.js";
import { envelopeText } from "../../seam/envelope.js";
import { adaptedTools, callThroughSeam, type SeamAdapterOptions } from "../seam-bridge.js";
import { approvedInState } from "./approval-middleware.js";
import { envelopeToolMessage } from "./envelope-tool-message.js";

/**
 * The tools the caller may see, as LangChain structured tools. Invoked with a model's ToolCall, a tool
 * runs through the seam under that call's id and answers with a ToolMessage (`envelopeToolMessage`);
 * invoked with bare arguments, it answers with the text alone. LangChain's approval flow is an agent
 * middleware: with `toolregApprovalMiddleware` and an approver, a call the human approved there runs
 * once, approved in toolreg as the approver. Any other call that needs approval parks in toolreg and the
 * model is told its approval id; once a human approved it there, `resumeApproved` runs it and answers
 * the same tool call.
 */
export function langChainTools(options: SeamAdapterOptions): DynamicStructuredTool[] {
  return adaptedTools(options).map((adapted) => {
    const name = adapted.name;
    return tool(
      async (input, runtime) => {
        const toolCallId = runtime.toolCall?.id;
        // The human's yes lives in the agent's state, which the checkpoint carries to whichever process resumes.
        const state: unknown = "state" in runtime ? runtime.state : undefined;
        const approved =
          toolCallId !== undefined && approvedInState(state, { id: toolCallId, name, args: input });
        const envelope = await callThroughSeam(options, name, input, toolCallId ?? randomUUID(), approved);
        return toolCallId === undefined
          ? envelopeText(envelope)
          : envelopeToolMessage(envelope, toolCallId, name);
      },
      { name, description: descriptionForModel(adapted), schema: adapted.inputJsonSchema as JSONSchema },
    );
  });
}
