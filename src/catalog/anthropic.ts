/** @module Anthropic Messages `tools`, with an optional prompt-cache breakpoint. */

import type { JsonSchemaObject } from "../declaration/json-schema-validator.js";
import type { AnyTool } from "../registry/registry.js";
import { descriptionForModel } from "./model-description.js";
import { parametersOf } from "./parameters.js";

export interface AnthropicTool {
  name: string;
  description: string;
  input_schema: JsonSchemaObject;
  cache_control?: { type: "ephemeral" };
}

export interface AnthropicOptions {
  /** Marks the last tool as a cache breakpoint, so the whole tool list is cached as one prefix. */
  cacheLastTool?: boolean;
}

/** Renders tools as Messages API `tools`, in the order given. */
export function renderAnthropicTools(
  tools: readonly AnyTool[],
  options: AnthropicOptions = {},
): AnthropicTool[] {
  const last = tools.length - 1;
  return tools.map((tool, index) => ({
    name: tool.name,
    description: descriptionForModel(tool),
    input_schema: parametersOf(tool),
    ...(options.cacheLastTool && index === last ? { cache_control: { type: "ephemeral" as const } } : {}),
  }));
}
