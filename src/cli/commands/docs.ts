/** @module `toolreg docs`: writes or refreshes each tool's docs page from its declaration. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Catalogue } from "../../check/catalogue.js";
import { refreshPage } from "../../check/tool-docs.js";
import type { CliIo } from "../cli-io.js";

export function docsCommand(catalogue: Catalogue, io: CliIo): number {
  mkdirSync(catalogue.docsDir, { recursive: true });
  let changed = 0;
  for (const tool of catalogue.tools) {
    const path = join(catalogue.docsDir, `${tool.name}.md`);
    const existing = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    const page = refreshPage(tool, existing);
    if (page !== existing) {
      writeFileSync(path, page);
      changed++;
    }
  }
  io.stdout(`${changed} of ${catalogue.tools.length} docs pages written to ${catalogue.docsDir}\n`);
  return 0;
}
