/** @module The default catalogue: the tools the CLI serves, with their triage lists and docs folder. */
import { fileURLToPath } from "node:url";
import type { Catalogue } from "../check/catalogue.js";
import { createDefaultRegistry, type DefaultToolDeps } from "./index.js";

/** Where the generated docs pages of the first-party tools live, in the source tree and the package alike. */
export const FIRST_PARTY_DOCS_DIR = fileURLToPath(new URL("../../docs/tools", import.meta.url));

export function defaultCatalogue(deps: DefaultToolDeps = {}): Catalogue {
  return {
    tools: createDefaultRegistry(deps).list(),
    // No first-party tool writes outside the host yet; each one that does is triaged here.
    triage: { publishing: [], directed: [] },
    reviewedOverrides: [],
    docsDir: FIRST_PARTY_DOCS_DIR,
  };
}
