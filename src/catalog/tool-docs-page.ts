/**
 * @module A tool's docs page, generated from its declaration: what `toolreg docs` writes between its markers,
 * `toolreg describe` prints and an MCP client reads as the tool's docs resource.
 */
import type { AnyTool } from "../registry/registry.js";
import { descriptionForModel } from "./model-description.js";

interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  default?: unknown;
}

/**
 * The page for one tool, as Markdown: its declaration's facts and its input table. An imported tool's
 * description is the upstream's own words, fenced as the model reads them.
 */
export function toolDocsPage(tool: AnyTool): string {
  const lines = [
    `# ${tool.name}`,
    "",
    descriptionForModel(tool),
    "",
    "| | |",
    "| --- | --- |",
    `| version | ${tool.version} |`,
    `| category | ${tool.category} |`,
    `| effect | ${tool.effect} |`,
    `| approval | ${tool.approval} |`,
    `| idempotency key | ${tool.idempotencyKey ? "required" : "no"} |`,
    ...(tool.idempotencyKey ? [`| lost outcome | ${lostOutcome(tool)} |`] : []),
    `| scopes | ${tool.scopes.length > 0 ? tool.scopes.join(", ") : "none"} |`,
    `| cost | ${tool.cost} |`,
    `| limits | ${tool.limits.timeoutMs} ms, ${tool.limits.outputBytes} bytes of output |`,
    `| provenance | ${tool.provenance} |`,
  ];
  if (tool.requires.length > 0) lines.push(`| requires | ${tool.requires.map((r) => r.name).join(", ")} |`);
  if (tool.deprecatedBy) lines.push(`| deprecated by | ${tool.deprecatedBy} |`);
  if (tool.runtime) lines.push(`| runtime | ${tool.runtime} |`);
  for (const override of tool.overrides) {
    lines.push(
      `| override | ${override.field}: ${String(override.declared)} instead of ${String(override.derived)} — ${override.reason} |`,
    );
  }
  lines.push("", "## Input", "", ...inputTable(tool));
  return lines.join("\n");
}

/** What happens to a call under a key whose run was lost (its process died, or stopped past its drain). */
function lostOutcome(tool: AnyTool): string {
  return tool.upstreamDeduplicates
    ? "run again under the same key: its provider deduplicates on the key"
    : "reported unknown, never run again unless an operator retries it";
}

function inputTable(tool: AnyTool): string[] {
  const properties = (tool.inputJsonSchema.properties ?? {}) as Record<string, PropertySchema>;
  const required = new Set((tool.inputJsonSchema.required ?? []) as string[]);
  const names = Object.keys(properties);
  if (names.length === 0) return ["No arguments."];
  return [
    "| argument | type | required | description |",
    "| --- | --- | --- | --- |",
    ...names.map((name) => {
      const property = properties[name] ?? {};
      const type = property.enum
        ? property.enum.map((value) => JSON.stringify(value)).join(" \\| ")
        : [property.type ?? "any"].flat().join(" \\| ");
      const fallback = property.default === undefined ? "" : ` (default ${JSON.stringify(property.default)})`;
      const description = `${property.description ?? ""}${fallback}`
        .replace(/\|/g, "\\|")
        .replace(/\n/g, " ");
      return `| ${name} | ${type} | ${required.has(name) ? "yes" : "no"} | ${description} |`;
    }),
  ];
}
