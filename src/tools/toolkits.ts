/**
 * @module Every toolkit toolreg ships, in one list: the built-in ones, then the vendor packages, each its
 * own npm package loaded when installed. Adding a toolkit is one folder and one line here; the catalogue
 * check, the docs and the example server read this list.
 */
import { createRequire } from "node:module";
import { dirname, isAbsolute, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { attachmentsToolkit } from "./attachments/toolkit.js";
import { audioToolkit } from "./audio/toolkit.js";
import { dataToolkit } from "./data/toolkit.js";
import { demoToolkit } from "./demo/toolkit.js";
import { documentsToolkit } from "./documents/toolkit.js";
import { filesToolkit } from "./files/toolkit.js";
import { generalToolkit } from "./general/toolkit.js";
import { generateToolkit } from "./generate/toolkit.js";
import { humanToolkit } from "./human/toolkit.js";
import { knowledgeToolkit } from "./knowledge/toolkit.js";
import { memoryToolkit } from "./memory/toolkit.js";
import { schedulesToolkit } from "./schedules/toolkit.js";
import { searchToolkit } from "./search/toolkit.js";
import { shellToolkit } from "./shell/toolkit.js";
import { skillsToolkit } from "./skills/toolkit.js";
import { sqlToolkit } from "./sql/toolkit.js";
import { todoToolkit } from "./todo/toolkit.js";
import type { Toolkit } from "./toolkit/define-toolkit.js";
import { webToolkit } from "./web/toolkit.js";

// biome-ignore lint/suspicious/noExplicitAny: a list of toolkits of every configuration and environment.
export type AnyToolkit = Toolkit<any, any>;

/** In the order a registry serves them. */
export const BUILT_IN_TOOLKITS: readonly AnyToolkit[] = [
  generalToolkit,
  webToolkit,
  searchToolkit,
  dataToolkit,
  filesToolkit,
  generateToolkit,
  sqlToolkit,
  shellToolkit,
  demoToolkit,
  todoToolkit,
  memoryToolkit,
  schedulesToolkit,
  knowledgeToolkit,
  humanToolkit,
  attachmentsToolkit,
  documentsToolkit,
  skillsToolkit,
  audioToolkit,
];

/** The vendor toolkits toolreg publishes, each an npm package with the vendor's SDK as its own dependency. */
export const VENDOR_TOOLKIT_PACKAGES: readonly string[] = [
  "@toolreg/tools-github",
  "@toolreg/tools-slack",
  "@toolreg/tools-media",
  "@toolreg/tools-research",
  "@toolreg/tools-scrape",
  "@toolreg/tools-browser",
  "@toolreg/tools-finance",
  "@toolreg/tools-weather",
  "@toolreg/tools-maps",
  "@toolreg/tools-jira",
  "@toolreg/tools-confluence",
  "@toolreg/tools-linear",
  "@toolreg/tools-notion",
  "@toolreg/tools-email",
];

export function isToolkit(value: unknown): value is AnyToolkit {
  const candidate = value as Partial<AnyToolkit> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.id === "string" &&
    typeof candidate.declarations === "function" &&
    typeof candidate.build === "function"
  );
}

/**
 * The toolkit a config file names: a built-in id (`files`), an npm package (`@toolreg/tools-github`), or a
 * module path relative to `base` (`./toolkits/crm.js`). A module gives its toolkit as its default export,
 * or as its one exported toolkit.
 */
export async function loadToolkit(reference: string, base: string = process.cwd()): Promise<AnyToolkit> {
  const builtIn = BUILT_IN_TOOLKITS.find((toolkit) => toolkit.id === reference);
  if (builtIn) return builtIn;
  const isPath = reference.startsWith(".") || isAbsolute(reference);
  const specifier = isPath ? pathToFileURL(resolve(base, reference)).href : reference;
  let loaded: Record<string, unknown>;
  try {
    loaded = (await import(specifier)) as Record<string, unknown>;
  } catch (error) {
    const known = BUILT_IN_TOOLKITS.map((toolkit) => toolkit.id).join(", ");
    throw new Error(
      `toolkit ${reference}: ${isPath ? "cannot load the module" : `not a built-in toolkit (${known}) nor an installed package`}: ${(error as Error).message}`,
    );
  }
  if (isToolkit(loaded.default)) return loaded.default;
  const found = Object.values(loaded).filter(isToolkit);
  if (found.length === 1) return found[0] as AnyToolkit;
  throw new Error(
    `toolkit ${reference}: the module exports ${found.length === 0 ? "no toolkit" : `${found.length} toolkits`}; export one made with defineToolkit as its default`,
  );
}

/** The vendor packages that are installed, loaded; a missing one is skipped (a core install has none). */
export async function installedVendorToolkits(): Promise<AnyToolkit[]> {
  const toolkits: AnyToolkit[] = [];
  for (const name of VENDOR_TOOLKIT_PACKAGES) {
    if (packageDir(name) === undefined) continue;
    toolkits.push(await loadToolkit(name));
  }
  return toolkits;
}

/** Where an installed package lives, or undefined when it is not installed. */
export function packageDir(name: string): string | undefined {
  try {
    return dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}
