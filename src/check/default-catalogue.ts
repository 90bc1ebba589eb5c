/**
 * @module The first-party catalogue: every tool toolreg ships, read from the toolkits' declarations (no
 * credentials, no network, nothing bound), with their triage rows and docs folders. `toolreg check` and
 * `toolreg docs` read it; what a host actually serves depends on what it wires.
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { metaTools } from "../catalog/meta/index.js";
import type { AnyTool } from "../registry/registry.js";
import {
  type AnyToolkit,
  BUILT_IN_TOOLKITS,
  installedVendorToolkits,
  packageDir,
} from "../tools/toolkits.js";
import type { Catalogue } from "./catalogue.js";

/** Where the generated docs pages of the built-in tools live, in the source tree and the package alike. */
export const FIRST_PARTY_DOCS_DIR = fileURLToPath(new URL("../../docs/tools", import.meta.url));

/** The built-in toolkits and the meta-tools: the catalogue of the core package alone. */
export function defaultCatalogue(): Catalogue {
  return catalogueOf(BUILT_IN_TOOLKITS);
}

/** The core catalogue and every vendor toolkit package that is installed beside it. */
export async function firstPartyCatalogue(): Promise<Catalogue> {
  return catalogueOf([...BUILT_IN_TOOLKITS, ...(await installedVendorToolkits())]);
}

function catalogueOf(toolkits: readonly AnyToolkit[]): Catalogue {
  const docsDirs: Record<string, string> = {};
  for (const toolkit of toolkits) {
    const dir = toolkit.package === "toolreg" ? undefined : packageDir(toolkit.package);
    if (dir !== undefined) docsDirs[toolkit.package] = join(dir, "docs", "tools");
  }
  return {
    tools: [...toolkits.flatMap((toolkit) => toolkit.declarations()), ...declaredMetaTools()],
    triage: {
      publishing: toolkits.flatMap((toolkit) => toolkit.triage?.publishing ?? []),
      directed: toolkits.flatMap((toolkit) => toolkit.triage?.directed ?? []),
    },
    reviewedOverrides: toolkits.flatMap((toolkit) => toolkit.reviewedOverrides ?? []),
    docsDir: FIRST_PARTY_DOCS_DIR,
    docsDirs,
  };
}

/** The meta-tools belong to the catalogue they search: declared here over a seam that is never called. */
function declaredMetaTools(): readonly AnyTool[] {
  const declarationsOnly = () => Promise.reject(new Error("declarations only"));
  return metaTools({
    seam: () => {
      throw new Error("declarations only");
    },
    outputs: { put: declarationsOnly, get: declarationsOnly },
  });
}
