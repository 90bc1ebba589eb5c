/** @module A tool whose answers are scripted and whose calls are counted, for tests of the seam and hosts. */
import { z } from "zod";
import { defineTool, type Tool, type ToolDeclaration, type ToolOutput } from "../declaration/define-tool.js";
import type { ToolContext } from "../seam/context.js";

export type ScriptStep = ToolOutput<unknown> | Error | ((input: unknown, context: ToolContext) => unknown);

export interface ScriptedTool extends Tool<Record<string, unknown>, unknown> {
  /** Every call the body received, in order. */
  readonly calls: { input: unknown; context: ToolContext }[];
}

/**
 * Each call takes the next step (the last repeats): an output is returned, an Error thrown, a function called.
 * Any declaration field can be overridden; the input accepts any object unless one is given.
 */
export function createScriptedTool(
  steps: readonly ScriptStep[],
  declaration: Partial<ToolDeclaration<Record<string, unknown>, unknown>> = {},
): ScriptedTool {
  const calls: { input: unknown; context: ToolContext }[] = [];
  const tool = defineTool<Record<string, unknown>, unknown>({
    name: "scripted_tool",
    description: "A tool whose answers are scripted by a test.",
    category: "general",
    effect: "read",
    input: z.looseObject({}),
    ...declaration,
    async run(input, context) {
      const step = steps[Math.min(calls.length, steps.length - 1)];
      calls.push({ input, context });
      if (step instanceof Error) throw step;
      if (typeof step === "function") return (await step(input, context)) as ToolOutput<unknown>;
      return step ?? "";
    },
  });
  return Object.assign(Object.create(null), tool, { calls }) as ScriptedTool;
}
