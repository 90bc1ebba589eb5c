/** @module What `toolreg check` reads: the tools, the triage lists and the reviewed overrides of one catalogue. */
import type { AnyTool } from "../registry/registry.js";

/** One row of a triage list: a tool by name, or a whole package as `package/*`. */
export interface TriageRow {
  /** A tool name, or `<package>/*`. */
  tool: string;
  package: string;
  why: string;
}

/**
 * Every external-write or destructive tool is triaged into exactly one list: publishing (public under the
 * operator's brand) or directed (reaches a third party, reaches no strangers).
 */
export interface Triage {
  publishing: readonly TriageRow[];
  directed: readonly TriageRow[];
}

/** An override of a derived approval or idempotency value that a person has reviewed. */
export interface ReviewedOverride {
  tool: string;
  field: "approval" | "idempotencyKey";
}

export interface Catalogue {
  tools: readonly AnyTool[];
  triage: Triage;
  reviewedOverrides: readonly ReviewedOverride[];
  /** Folder holding one `<tool>.md` docs page per tool. */
  docsDir: string;
}

/** The package a tool belongs to, for triage: first-party tools are `toolreg`'s. */
export function packageOf(tool: Pick<AnyTool, "provenance">): string {
  if (tool.provenance === "first-party") return "toolreg";
  return tool.provenance.startsWith("package:") ? tool.provenance.slice("package:".length) : tool.provenance;
}
