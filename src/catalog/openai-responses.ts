/** @module OpenAI Responses API `tools`. */

import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
import { descriptionForModel } from "./model-description.js";
import { parametersOf } from "./parameters.js";

export interface OpenAIResponsesTool {
  type: "function";
  name: string;
  description: string;
  parameters: JsonSchemaObject;
  strict: boolean;
}

export interface OpenAIResponsesOptions {
  /** Defaults to false: the Responses API otherwise assumes strict, which our schemas do not promise. */
  strict?: boolean;
}

/** Renders tools as Responses API function tools, in the order given. */
export function renderOpenAIResponsesTools(
  tools: readonly AnyTool[],
  options: OpenAIResponsesOptions = {},
): OpenAIResponsesTool[] {
  return tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: descriptionForModel(tool),
    parameters: parametersOf(tool),
    strict: options.strict ?? false,
  }));
}
