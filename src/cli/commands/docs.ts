/** @module `toolreg docs`: writes or refreshes each tool's docs page from its declaration. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type Catalogue, docsPageOf } from "../../check/catalogue.js";
import { refreshPage } from "../../check/tool-docs.js";
import type { CliIo } from "../cli-io.js";

export function docsCommand(catalogue: Catalogue, io: CliIo): number {
  let changed = 0;
  for (const tool of catalogue.tools) {
    const path = docsPageOf(catalogue, tool);
    mkdirSync(dirname(path), { recursive: true });
    const existing = existsSync(path) ? readFileSync(path, "utf8") : undefined;
    const page = refreshPage(tool, existing);
    if (page !== existing) {
      writeFileSync(path, page);
      changed++;
    }
  }
  const folders = [catalogue.docsDir, ...Object.values(catalogue.docsDirs ?? {})];
  io.stdout(`${changed} of ${catalogue.tools.length} docs pages written to ${folders.join(", ")}\n`);
  return 0;
}
