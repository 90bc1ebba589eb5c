/** @module Checks the call path and resume both make: visibility, input validation, preconditions, startability. */
import { describeIssues, type ValidationResult } from "../declaration/tool-schema.js";
import type { AnyTool } from "../registry/registry.js";
import type { ExecutionContext } from "./context.js";
import { type Envelope, failure } from "./envelope.js";
import type { SeamSettings } from "./seam-settings.js";

/** Toolset, then authorization: the one filter discovery, calls and resumes share. */
export function isVisible(settings: SeamSettings, context: ExecutionContext, tool: AnyTool): boolean {
  const categories = settings.toolsets?.categoriesFor(context.tenantId);
  if (categories && !categories.has(tool.category)) return false;
  return settings.authorizer.authorize(context, tool);
}

export type Validated = { ok: true; value: unknown } | { ok: false; envelope: Envelope };

/** Synchronous for synchronous schemas, which is nearly all of them. */
export function validateInput(tool: AnyTool, raw: unknown): Validated | Promise<Validated> {
  const result = tool.input.validate(raw);
  return result instanceof Promise
    ? result.then((settled) => toValidated(tool, settled))
    : toValidated(tool, result);
}

function toValidated(tool: AnyTool, result: ValidationResult<unknown>): Validated {
  if (result.ok) return result;
  return {
    ok: false,
    envelope: failure("invalid_input", `invalid input for ${tool.name}: ${describeIssues(result.issues)}`, {
      details: { issues: result.issues },
    }),
  };
}

/** The first unmet precondition as a refusal; a check that throws counts as unmet (fail closed). */
export async function unmetPrecondition(
  tool: AnyTool,
  context: ExecutionContext,
): Promise<Envelope | undefined> {
  for (const precondition of tool.requires) {
    let met: boolean;
    try {
      met = await precondition.check(context);
    } catch {
      met = false;
    }
    if (!met) {
      return failure(
        "precondition_failed",
        `${tool.name} declines: it requires ${precondition.name}, which is not in place`,
        {
          details: { requires: precondition.name },
        },
      );
    }
  }
  return undefined;
}

/** A call that cannot start now is refused before it claims anything, so a retry is still possible. */
export function unstartable(context: ExecutionContext, tool: AnyTool, now: number): Envelope | undefined {
  if (context.signal?.aborted) {
    return failure("timeout", `the host aborted ${tool.name} before it started`, {
      details: { aborted: true },
    });
  }
  if (context.deadline !== undefined && context.deadline <= now) {
    return failure("timeout", `the deadline passed before ${tool.name} could start`);
  }
  return undefined;
}
