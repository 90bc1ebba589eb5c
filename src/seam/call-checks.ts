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

/**
 * Synchronous for synchronous schemas, which is nearly all of them. An argument the schema does not name
 * is refused before validation: a zod object would strip it silently, and a model that invented
 * `dry_run: true` must hear that nothing read it.
 */
export function validateInput(tool: AnyTool, raw: unknown): Validated | Promise<Validated> {
  const unknown = unknownArguments(tool, raw);
  if (unknown) return unknown;
  const result = tool.input.validate(raw);
  return result instanceof Promise
    ? result.then((settled) => toValidated(tool, settled))
    : toValidated(tool, result);
}

/** Top-level argument names the input schema declares, or null when it takes others too. */
const declaredArguments = new WeakMap<AnyTool, ReadonlySet<string> | null>();

function argumentsOf(tool: AnyTool): ReadonlySet<string> | null {
  let names = declaredArguments.get(tool);
  if (names === undefined) {
    const schema = tool.inputJsonSchema;
    const open =
      (schema.additionalProperties !== undefined && schema.additionalProperties !== false) ||
      schema.patternProperties !== undefined ||
      typeof schema.properties !== "object" ||
      schema.properties === null;
    names = open ? null : new Set(Object.keys(schema.properties as object));
    declaredArguments.set(tool, names);
  }
  return names;
}

function unknownArguments(tool: AnyTool, raw: unknown): Validated | undefined {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return undefined;
  const names = argumentsOf(tool);
  if (!names) return undefined;
  let unknown: string[] | undefined;
  // Own keys by index: measured a third faster than a for-in with a hasOwn check per key.
  const keys = Object.keys(raw);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (names.has(key)) continue;
    unknown ??= [];
    unknown.push(key);
  }
  if (!unknown) return undefined;
  const takes = names.size > 0 ? `it takes ${[...names].join(", ")}` : "it takes no arguments";
  const listed = unknown.slice(0, 10).map((key) => JSON.stringify(key.slice(0, 60)));
  return {
    ok: false,
    envelope: failure(
      "invalid_input",
      `invalid input for ${tool.name}: unknown argument${unknown.length > 1 ? "s" : ""} ${listed.join(", ")}; ${takes}`,
      { details: { unknownArguments: unknown.slice(0, 10), accepted: [...names] } },
    ),
  };
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
