/** @module The catalogue as OpenAI Agents SDK function tools, every call through the seam. */

import { randomUUID } from "node:crypto";
import { type FunctionTool, tool } from "@openai/agents-core";
import type { JsonObjectSchemaNonStrict, JsonSchemaDefinitionEntry } from "@openai/agents-core/types";
import { descriptionForModel } from "../../catalog/model-description.js";
import { envelopeText } from "../../seam/envelope.js";
import {
  adaptedTools,
  callThroughSeam,
  frameworkNeedsApproval,
  type SeamAdapterOptions,
} from "../seam-bridge.js";

/** A tool's JSON Schema under the SDK's non-strict parameters type; the SDK passes it on unchanged. */
type JsonParameters = JsonObjectSchemaNonStrict<Record<string, JsonSchemaDefinitionEntry>>;

/** A catalogue tool as the SDK runs it: JSON Schema parameters, text results. */
export type SeamFunctionTool = FunctionTool<unknown, JsonParameters, string>;

/**
 * The tools the caller may see, as Agents SDK function tools. A call runs through the seam under the
 * SDK's call id; the model reads the envelope's text, an error included, so it can correct itself. The
 * seam's approval step becomes the SDK's `needsApproval` when `options.approver` is set: an interruption
 * the app approves is approved in toolreg as that approver and resumed once. Without an approver the SDK
 * never asks, and a call that needs approval parks in toolreg for a human there.
 */
export function openAIAgentsTools(options: SeamAdapterOptions): SeamFunctionTool[] {
  return adaptedTools(options).map((adapted) => {
    const name = adapted.name;
    return tool({
      name,
      description: descriptionForModel(adapted),
      // Non-strict: the schema goes to the model as declared, and the seam is the one that validates.
      parameters: adapted.inputJsonSchema as JsonParameters,
      strict: false,
      // Without a call id the SDK could not tie an approval to a run: nothing to ask, the seam parks it.
      needsApproval: (_runContext, input, callId) =>
        callId === undefined ? Promise.resolve(false) : frameworkNeedsApproval(options, name, input, callId),
      async execute(input, runContext, details) {
        const callId = details?.toolCall?.callId;
        // The app's yes lives in the run's context, which a RunState carries to whichever process resumes.
        const approved =
          callId !== undefined && runContext?.isToolApproved({ toolName: name, callId }) === true;
        const envelope = await callThroughSeam(options, name, input, callId ?? randomUUID(), approved);
        return envelopeText(envelope);
      },
    });
  });
}
