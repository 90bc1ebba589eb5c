/** @module Loads a catalogue module named by `toolreg check --registry PATH`. */
import { dirname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import type { AnyTool, RegistryView } from "../registry/registry.js";
import type { Catalogue, ReviewedOverride, Triage } from "./catalogue.js";

/** What such a module exports as `catalogue` (or default): tools or a registry, with optional lists. */
export interface CatalogueModule {
  tools?: readonly AnyTool[];
  registry?: RegistryView;
  triage?: Partial<Triage>;
  reviewedOverrides?: readonly ReviewedOverride[];
  /** Relative to the module's folder; `docs/tools` when omitted. */
  docsDir?: string;
}

export async function loadCatalogue(path: string): Promise<Catalogue> {
  const absolute = resolve(path);
  const loaded = (await import(pathToFileURL(absolute).href)) as {
    catalogue?: CatalogueModule;
    default?: CatalogueModule;
  };
  const module = loaded.catalogue ?? loaded.default;
  const tools = module?.tools ?? module?.registry?.list();
  if (!module || !tools) {
    throw new Error(
      `${path} exports no catalogue: export const catalogue = { tools | registry, triage, reviewedOverrides, docsDir }`,
    );
  }
  return {
    tools,
    triage: { publishing: module.triage?.publishing ?? [], directed: module.triage?.directed ?? [] },
    reviewedOverrides: module.reviewedOverrides ?? [],
    docsDir: resolve(dirname(absolute), module.docsDir ?? "docs/tools"),
  };
}
