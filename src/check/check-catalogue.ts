/** @module The catalogue linter behind `toolreg check`: every problem at once, each rule checked both ways. */
import { existsSync, readFileSync } from "node:fs";
import { isCategory } from "../declaration/categories.js";
import type { AnyTool } from "../registry/registry.js";
import { type Catalogue, docsPageOf, packageOf, type TriageRow } from "./catalogue.js";
import { generatedBlock, renderToolDocs } from "./tool-docs.js";

export type CheckRule = "docs" | "override" | "category" | "triage";

export interface CheckProblem {
  rule: CheckRule;
  /** The tool, package row or list entry the problem is about. */
  subject: string;
  message: string;
}

export function checkCatalogue(catalogue: Catalogue): CheckProblem[] {
  return [
    ...checkDocs(catalogue),
    ...checkOverrides(catalogue),
    ...checkCategories(catalogue.tools),
    ...checkTriage(catalogue),
  ];
}

function checkDocs(catalogue: Catalogue): CheckProblem[] {
  const problems: CheckProblem[] = [];
  for (const tool of catalogue.tools) {
    const path = docsPageOf(catalogue, tool);
    if (!existsSync(path)) {
      problems.push({
        rule: "docs",
        subject: tool.name,
        message: `has no docs entry (${path}); run toolreg docs`,
      });
      continue;
    }
    if (generatedBlock(readFileSync(path, "utf8")) !== renderToolDocs(tool)) {
      problems.push({
        rule: "docs",
        subject: tool.name,
        message: `docs entry ${path} is out of date; run toolreg docs`,
      });
    }
  }
  return problems;
}

function checkOverrides({ tools, reviewedOverrides }: Catalogue): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const reviewed = new Set(reviewedOverrides.map((entry) => `${entry.tool}.${entry.field}`));
  const present = new Set<string>();
  for (const tool of tools) {
    for (const override of tool.overrides) {
      const id = `${tool.name}.${override.field}`;
      present.add(id);
      if (!reviewed.has(id)) {
        problems.push({
          rule: "override",
          subject: tool.name,
          message: `overrides derived ${override.field} ${String(override.derived)} with ${String(override.declared)} ("${override.reason}") and the override is not in the reviewed list`,
        });
      }
    }
  }
  for (const id of reviewed) {
    if (!present.has(id)) {
      problems.push({
        rule: "override",
        subject: id,
        message: "is in the reviewed overrides list but no tool overrides it",
      });
    }
  }
  return problems;
}

function checkCategories(tools: readonly AnyTool[]): CheckProblem[] {
  return tools
    .filter((tool) => !isCategory(tool.category))
    .map((tool) => ({
      rule: "category",
      subject: tool.name,
      message: `category "${tool.category}" is not in the category list`,
    }));
}

function checkTriage({ tools, triage }: Catalogue): CheckProblem[] {
  const problems: CheckProblem[] = [];
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const packages = new Set(tools.map(packageOf));
  const publishingPackages = new Set(triage.publishing.map((row) => row.package));
  const lists = [
    ["publishing", triage.publishing],
    ["directed", triage.directed],
  ] as const;

  for (const [list, rows] of lists) {
    for (const row of rows) {
      const wildcard = wildcardPackage(row);
      if (wildcard !== undefined) {
        if (wildcard !== row.package) {
          problems.push({
            rule: "triage",
            subject: row.tool,
            message: `wildcard row names package ${wildcard} but says ${row.package}`,
          });
        }
        if (list === "publishing") {
          problems.push({
            rule: "triage",
            subject: row.tool,
            message: "the publishing list must name each tool; it takes no wildcard",
          });
        } else if (publishingPackages.has(wildcard)) {
          problems.push({
            rule: "triage",
            subject: row.tool,
            message: `package ${wildcard} has a publishing tool, so its directed tools must be named one by one`,
          });
        }
        if (!packages.has(wildcard)) {
          problems.push({
            rule: "triage",
            subject: row.tool,
            message: `is in the ${list} list but no tool is in package ${wildcard}`,
          });
        }
        continue;
      }
      const tool = byName.get(row.tool);
      if (!tool) {
        problems.push({
          rule: "triage",
          subject: row.tool,
          message: `is in the ${list} list but no tool has that name`,
        });
      } else if (tool.effect !== "external-write" && tool.effect !== "destructive") {
        problems.push({
          rule: "triage",
          subject: row.tool,
          message: `is in the ${list} list but its effect is ${tool.effect}`,
        });
      } else if (packageOf(tool) !== row.package) {
        problems.push({
          rule: "triage",
          subject: row.tool,
          message: `is listed under package ${row.package} but belongs to ${packageOf(tool)}`,
        });
      }
    }
  }

  // A tool named in any row is triaged by that name; a wildcard covers only the tools nobody named.
  const named = new Set([...triage.publishing, ...triage.directed].map((row) => row.tool));
  for (const tool of tools) {
    if (tool.effect !== "external-write" && tool.effect !== "destructive") continue;
    const found = lists
      .filter(([, rows]) => rows.some((row) => covers(row, tool, named)))
      .map(([list]) => list);
    if (found.length === 0) {
      problems.push({
        rule: "triage",
        subject: tool.name,
        message: `is ${tool.effect} but in neither the publishing nor the directed list`,
      });
    } else if (found.length > 1) {
      problems.push({
        rule: "triage",
        subject: tool.name,
        message: "is in both the publishing and the directed list",
      });
    }
  }
  return problems;
}

function wildcardPackage(row: TriageRow): string | undefined {
  return row.tool.endsWith("/*") ? row.tool.slice(0, -2) : undefined;
}

function covers(row: TriageRow, tool: AnyTool, named: ReadonlySet<string>): boolean {
  const wildcard = wildcardPackage(row);
  if (wildcard === undefined) return row.tool === tool.name;
  return wildcard === packageOf(tool) && !named.has(tool.name);
}
