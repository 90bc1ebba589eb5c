/** @module `defineTool`: turns a declaration into a Tool, deriving governance and refusing what is unsafe. */

import semver from "semver";
import { ToolDefinitionError } from "../errors/tool-definition-error.js";
import type { ExecutionContext, ToolContext } from "../seam/context.js";
import type { Provenance as EnvelopeProvenance } from "../seam/envelope.js";
import { type Category, isCategory } from "./categories.js";
import { APPROVALS, type Approval, deriveGovernance, type Effect, isEffect } from "./effect.js";
import { hintsBeyondEffect, type ToolHints } from "./hints.js";
import type { HumanAsk } from "./human-ask.js";
import type { JsonSchemaObject } from "./json-schema-validator.js";
import { hashDefinition } from "./tool-hash.js";
import { type SchemaLike, type ToolSchema, toToolSchema } from "./tool-schema.js";

export type Cost = "cpu" | "io" | "model";

/** Where a tool came from: shipped here, from a package, or imported from an MCP server. */
export type ToolProvenance = "first-party" | `package:${string}` | `mcp:${string}`;

/** A condition the deployment must meet before the tool runs; unmet ⇒ the tool declines and says why. */
export interface Precondition {
  /** Short name, e.g. "encryption configured". */
  name: string;
  check(context: ExecutionContext): boolean | Promise<boolean>;
}

export interface ToolLimits {
  timeoutMs: number;
  outputBytes: number;
}

/** What `run` may return: plain text, or content with structured data. */
export type ToolOutput<O> =
  | string
  | { content?: string; data?: O; truncated?: boolean; provenance?: EnvelopeProvenance };

export interface ToolDeclaration<I, O> {
  name: string;
  version?: string;
  description: string;
  category: Category;
  effect: Effect;
  input: SchemaLike<I>;
  output?: SchemaLike<O>;
  /** Overrides the derived approval; needs `overrideReason`. */
  approval?: Approval;
  /** Overrides the derived idempotency-key requirement; needs `overrideReason`. */
  idempotencyKey?: boolean;
  overrideReason?: string;
  /**
   * The provider deduplicates on the idempotency key this tool hands it (an `Idempotency-Key` header, a
   * vendor's request id, a unique column): a call whose outcome was lost may run again under its key
   * without repeating its effect. Default false: such a call is reported `unknown` and waits for an
   * operator. Only for tools that carry a key; `toolreg check` lists the tools that claim it.
   */
  upstreamDeduplicates?: boolean;
  /**
   * What a client is told beyond what the effect implies (an MCP client reads them as tool annotations):
   * that the tool reaches outside the deployment, may destroy, or is not safe to repeat. Caution only.
   */
  hints?: ToolHints;
  scopes?: readonly string[];
  cost?: Cost;
  limits?: Partial<ToolLimits>;
  requires?: readonly Precondition[];
  deprecatedBy?: string;
  /** Semver range of hosts this tool works with. */
  runtime?: string;
  provenance?: ToolProvenance;
  /**
   * For a tool that runs another tool through the seam (execute_tool): the call it would make, so that
   * an approval preview answers for that call, not for the wrapper that never needs one.
   */
  delegatesTo?(input: I): DelegatedCall | undefined;
  /**
   * For a tool whose call is a question to a human: it needs `approval: "always"`, and once a human
   * replies the seam makes its result with `answered` instead of `run`.
   */
  asksHuman?: HumanAsk<I, ToolOutput<O>>;
  run(input: I, context: ToolContext): ToolOutput<O> | Promise<ToolOutput<O>>;
}

export interface DelegatedCall {
  name: string;
  input: unknown;
}

/** A recorded departure from the derived governance, visible to `toolreg check`. */
export interface GovernanceOverride {
  field: "approval" | "idempotencyKey";
  derived: Approval | boolean;
  declared: Approval | boolean;
  reason: string;
}

export interface Tool<I = unknown, O = unknown> {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly category: Category;
  readonly effect: Effect;
  readonly approval: Approval;
  readonly idempotencyKey: boolean;
  /** See `ToolDeclaration.upstreamDeduplicates`. */
  readonly upstreamDeduplicates: boolean;
  /** The declared hints the effect does not already imply; empty when it implies them all. */
  readonly hints: ToolHints;
  readonly overrides: readonly GovernanceOverride[];
  readonly input: ToolSchema<I>;
  readonly output: ToolSchema<O> | undefined;
  /** The JSON Schema of the input, derived from `input`. */
  readonly inputJsonSchema: JsonSchemaObject;
  readonly scopes: readonly string[];
  readonly cost: Cost;
  readonly limits: ToolLimits;
  readonly requires: readonly Precondition[];
  readonly deprecatedBy: string | undefined;
  readonly runtime: string | undefined;
  readonly provenance: ToolProvenance;
  /** sha256 of everything a model or approver relies on; an approval parked under one hash is not run under another. */
  readonly hash: string;
  readonly delegatesTo: ((input: I) => DelegatedCall | undefined) | undefined;
  /** See `ToolDeclaration.asksHuman`. */
  readonly asksHuman?: HumanAsk<I, ToolOutput<O>> | undefined;
  run(input: I, context: ToolContext): ToolOutput<O> | Promise<ToolOutput<O>>;
}

export const DEFAULT_LIMITS: ToolLimits = { timeoutMs: 30_000, outputBytes: 64 * 1024 };
/** A day of running and 16 MiB of output: past these a limit is a mistake, not a choice. */
const MAX_LIMITS: ToolLimits = { timeoutMs: 24 * 60 * 60 * 1000, outputBytes: 16 * 1024 * 1024 };

const SNAKE_CASE = /^[a-z][a-z0-9]*(?:_[a-z0-9]+)*$/;
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/;
const PROVENANCE = /^(?:first-party|package:[a-z0-9@/._-]+|mcp:[A-Za-z0-9._-]+)$/;
const MAX_NAME_LENGTH = 64; // the strictest provider limit on function names

/** Builds a Tool, or throws a ToolDefinitionError naming the tool and the field. */
export function defineTool<I, O = unknown>(declaration: ToolDeclaration<I, O>): Tool<I, O> {
  const name = String(declaration.name);
  const fail = (field: string, problem: string): never => {
    throw new ToolDefinitionError(name, field, problem);
  };

  if (!SNAKE_CASE.test(name) || name.length > MAX_NAME_LENGTH) {
    fail(
      "name",
      `must be snake_case (a-z, 0-9, single underscores) and at most ${MAX_NAME_LENGTH} characters`,
    );
  }
  const version = declaration.version ?? "1.0.0";
  if (!SEMVER.test(version)) fail("version", `"${version}" is not a semver version`);
  if (typeof declaration.description !== "string" || declaration.description.trim().length === 0) {
    fail("description", "is required: say what the tool does and when to pick it");
  }
  if (!isCategory(declaration.category))
    fail("category", `"${String(declaration.category)}" is not a known category`);
  if (declaration.effect === undefined)
    fail("effect", "is required (read, internal-write, external-write, destructive)");
  if (!isEffect(declaration.effect)) fail("effect", `"${String(declaration.effect)}" is not a known effect`);
  if (typeof declaration.run !== "function") fail("run", "must be a function");

  const input = schemaOf<I>(declaration.input, "input", fail);
  if (input.jsonSchema.type !== "object")
    fail("input", 'must describe an object (JSON Schema type "object")');
  const output =
    declaration.output === undefined ? undefined : schemaOf<O>(declaration.output, "output", fail);

  const derived = deriveGovernance(declaration.effect);
  const overrides: GovernanceOverride[] = [];
  const reason = declaration.overrideReason?.trim();
  if (declaration.approval !== undefined && !APPROVALS.includes(declaration.approval)) {
    fail("approval", `"${String(declaration.approval)}" is not never, policy or always`);
  }
  const approval = declaration.approval ?? derived.approval;
  if (approval !== derived.approval) {
    if (!reason) fail("approval", `overrides the derived "${derived.approval}" without an overrideReason`);
    overrides.push({
      field: "approval",
      derived: derived.approval,
      declared: approval,
      reason: reason as string,
    });
  }
  const idempotencyKey = declaration.idempotencyKey ?? derived.idempotencyKey;
  if (idempotencyKey !== derived.idempotencyKey) {
    if (!reason)
      fail("idempotencyKey", `overrides the derived ${derived.idempotencyKey} without an overrideReason`);
    overrides.push({
      field: "idempotencyKey",
      derived: derived.idempotencyKey,
      declared: idempotencyKey,
      reason: reason as string,
    });
  }
  if (reason && overrides.length === 0) fail("overrideReason", "is given but nothing is overridden");
  const upstreamDeduplicates = declaration.upstreamDeduplicates ?? false;
  if (typeof upstreamDeduplicates !== "boolean") fail("upstreamDeduplicates", "must be true or false");
  if (upstreamDeduplicates && !idempotencyKey) {
    fail("upstreamDeduplicates", "needs an idempotency key to hand upstream (the tool takes none)");
  }

  const beyond = hintsBeyondEffect(declaration.effect, declaration.hints);
  if ("problem" in beyond) fail("hints", beyond.problem);
  const hints = "hints" in beyond ? beyond.hints : undefined;

  const limits = { ...DEFAULT_LIMITS, ...declaration.limits };
  for (const [field, value] of Object.entries(limits) as [keyof ToolLimits, number][]) {
    if (!Number.isInteger(value) || value <= 0 || value > MAX_LIMITS[field]) {
      fail(`limits.${field}`, `must be a whole number from 1 to ${MAX_LIMITS[field]}`);
    }
  }
  const provenance = declaration.provenance ?? "first-party";
  if (!PROVENANCE.test(provenance))
    fail("provenance", `"${provenance}" is not first-party, package:<name> or mcp:<server>`);
  // A range that does not parse would match no host at discovery, hiding the tool without a word.
  if (declaration.runtime !== undefined && semver.validRange(declaration.runtime) === null) {
    fail(
      "runtime",
      `"${String(declaration.runtime).slice(0, 100)}" is not a semver range such as ^1.2.0 or >=2 <4`,
    );
  }
  if (declaration.deprecatedBy !== undefined && !SNAKE_CASE.test(declaration.deprecatedBy)) {
    fail("deprecatedBy", "must name a tool");
  }
  // Asking a human is the call itself: without the approval step nobody would ever be asked.
  if (declaration.asksHuman !== undefined && approval !== "always") {
    fail("asksHuman", 'needs approval "always"');
  }

  const scopes = Object.freeze([...(declaration.scopes ?? [])].sort());
  const governed = {
    name,
    version,
    description: declaration.description,
    category: declaration.category,
    effect: declaration.effect,
    approval,
    idempotencyKey,
    // Hashed only when claimed, so the hashes of every other tool (and approvals parked under them) stay.
    ...(upstreamDeduplicates ? { upstreamDeduplicates } : {}),
    // Likewise only when the effect does not imply them; a tool whose hints change is a new version of itself.
    ...(hints ? { hints } : {}),
    inputJsonSchema: input.jsonSchema,
    outputJsonSchema: output?.jsonSchema,
    scopes,
    deprecatedBy: declaration.deprecatedBy,
    runtime: declaration.runtime,
    provenance,
  };
  return Object.freeze({
    ...governed,
    upstreamDeduplicates,
    hints: Object.freeze({ ...hints }),
    overrides: Object.freeze(overrides),
    input,
    output,
    cost: declaration.cost ?? "cpu",
    limits: Object.freeze(limits),
    requires: Object.freeze([...(declaration.requires ?? [])]),
    hash: hashDefinition(governed),
    delegatesTo: declaration.delegatesTo,
    ...(declaration.asksHuman ? { asksHuman: declaration.asksHuman } : {}),
    run: declaration.run,
  });
}

function schemaOf<T>(
  schema: unknown,
  field: string,
  fail: (field: string, problem: string) => never,
): ToolSchema<T> {
  if (schema === undefined) fail(field, "is required");
  try {
    return toToolSchema<T>(schema, field as "input" | "output");
  } catch (error) {
    return fail(field, (error as Error).message);
  }
}
