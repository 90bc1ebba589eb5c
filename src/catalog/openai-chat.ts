/** @module OpenAI Chat Completions `tools`. */

import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
import { descriptionForModel } from "./model-description.js";
import { parametersOf } from "./parameters.js";

export interface OpenAIChatTool {
  type: "function";
  function: { name: string; description: string; parameters: JsonSchemaObject; strict?: boolean };
}

export interface OpenAIChatOptions {
  /** Sets `strict` on every function; strict mode needs schemas that meet OpenAI's structured-output rules. */
  strict?: boolean;
}

/** Renders tools as Chat Completions `tools`, in the order given. */
export function renderOpenAIChatTools(
  tools: readonly AnyTool[],
  options: OpenAIChatOptions = {},
): OpenAIChatTool[] {
  return tools.map((tool) => ({
    type: "function",
    function: {
      name: tool.name,
      description: descriptionForModel(tool),
      parameters: parametersOf(tool),
      ...(options.strict === undefined ? {} : { strict: options.strict }),
    },
  }));
}
