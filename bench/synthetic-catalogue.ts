/**
 * @module Synthetic tools for catalogue benchmarks: deterministic, and shaped like real ones (a two-sentence
 * description, two to four parameters with their own descriptions, an enum here and a bound there), so
 * an OpenAI-format entry's JSON averages about the 118 tokens measured on real catalogues.
 */
import { defineTool } from "../src/declaration/define-tool.js";
import type { AnyTool } from "../src/registry/registry.js";

const SYSTEMS = [
  ["crm", "customer records"],
  ["tickets", "support tickets"],
  ["billing", "invoices"],
  ["calendar", "calendar events"],
  ["docs", "shared documents"],
  ["repo", "source repositories"],
  ["chat", "team channels"],
  ["mail", "email threads"],
  ["storage", "stored files"],
  ["metrics", "service metrics"],
  ["hr", "employee profiles"],
  ["inventory", "stock items"],
] as const;
const ACTIONS = [
  ["list", "Lists", "read"],
  ["get", "Fetches one of the", "read"],
  ["search", "Searches", "read"],
  ["create", "Creates one of the", "external-write"],
  ["update", "Updates one of the", "external-write"],
  ["archive", "Archives one of the", "internal-write"],
  ["delete", "Deletes one of the", "destructive"],
  ["export", "Exports", "read"],
] as const;
const CATEGORIES = [
  "crm",
  "project",
  "finance",
  "productivity",
  "knowledge",
  "code",
  "communication",
] as const;

const schemas = new Map<string, Record<string, unknown>>();

/** One schema object per shape, so the validator compiles each shape once however many tools share it. */
function parameters(index: number, subject: string): Record<string, unknown> {
  const key = `${index % 30}:${subject}`;
  let schema = schemas.get(key);
  if (!schema) {
    schema = buildParameters(index, subject);
    schemas.set(key, schema);
  }
  return schema;
}

function buildParameters(index: number, subject: string): Record<string, unknown> {
  const properties: Record<string, unknown> = {
    query: {
      type: "string",
      description: `Words to match against the ${subject}, such as a name or a title.`,
    },
  };
  if (index % 2 === 0) {
    properties.limit = {
      type: "integer",
      minimum: 1,
      maximum: 100,
      description: "How many results to return at most; 20 unless given.",
    };
  }
  if (index % 3 === 0) {
    properties.status = {
      type: "string",
      enum: ["open", "closed", "all"],
      description: "Which state to include.",
    };
  }
  if (index % 5 === 1)
    properties.owner = { type: "string", description: "Only items owned by this user id." };
  return { type: "object", properties, required: ["query"] };
}

/** `count` tools, named `<system>_<action>_<subject>_<n>` past the first round, in a fixed order. */
export function syntheticTools(count: number): AnyTool[] {
  return Array.from({ length: count }, (_, index) => {
    const [system, subject] = SYSTEMS[index % SYSTEMS.length] as (typeof SYSTEMS)[number];
    const [verb, phrase, effect] = ACTIONS[
      Math.floor(index / SYSTEMS.length) % ACTIONS.length
    ] as (typeof ACTIONS)[number];
    const round = Math.floor(index / (SYSTEMS.length * ACTIONS.length));
    return defineTool({
      name: `${system}_${verb}${round === 0 ? "" : `_${round}`}`,
      description: `${phrase} ${subject} in the ${system} workspace${round === 0 ? "" : ` ${round}`}, matching a query. Use it when the user asks about ${subject}; results are ordered by last change.`,
      category: CATEGORIES[index % CATEGORIES.length] as (typeof CATEGORIES)[number],
      effect,
      input: parameters(index, subject),
      run: () => "ok",
    });
  });
}
