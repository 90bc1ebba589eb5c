/** @module What `toolreg check` reads: the tools, the triage lists and the reviewed overrides of one catalogue. */
import { join } from "node:path";
import type { AnyTool } from "../registry/registry.js";
import type { ReviewedOverride, TriageRow } from "../tools/toolkit/define-toolkit.js";

export type { ReviewedOverride, TriageRow } from "../tools/toolkit/define-toolkit.js";

/**
 * Every external-write or destructive tool is triaged into exactly one list: publishing (public under the
 * operator's brand) or directed (reaches a third party, reaches no strangers).
 */
export interface Triage {
  publishing: readonly TriageRow[];
  directed: readonly TriageRow[];
}

export interface Catalogue {
  tools: readonly AnyTool[];
  triage: Triage;
  reviewedOverrides: readonly ReviewedOverride[];
  /** Folder holding one `<tool>.md` docs page per tool. */
  docsDir: string;
  /** A package's own folder of docs pages, where it is not `docsDir` (a vendor package ships its pages). */
  docsDirs?: Readonly<Record<string, string>>;
}

/** The docs page of `tool` in `catalogue`. */
export function docsPageOf(catalogue: Pick<Catalogue, "docsDir" | "docsDirs">, tool: AnyTool): string {
  return join(catalogue.docsDirs?.[packageOf(tool)] ?? catalogue.docsDir, `${tool.name}.md`);
}

/** The package a tool belongs to, for triage: first-party tools are `toolreg`'s. */
export function packageOf(tool: Pick<AnyTool, "provenance">): string {
  if (tool.provenance === "first-party") return "toolreg";
  return tool.provenance.startsWith("package:") ? tool.provenance.slice("package:".length) : tool.provenance;
}
