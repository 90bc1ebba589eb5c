/**
 * @module The web console's files, read once at start from the package's `console/` folder and served
 * as they are: no build step at run time. Only files that exist there at start can ever be served.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";

export const CONSOLE_DIR = fileURLToPath(new URL("../../console", import.meta.url));

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

export interface ConsoleAsset {
  body: Buffer;
  type: string;
}

export function loadConsoleAssets(directory = CONSOLE_DIR): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  if (!existsSync(directory)) return assets;
  for (const name of readdirSync(directory)) {
    const type = TYPES[extname(name)];
    if (type) assets.set(name, { body: readFileSync(join(directory, name)), type });
  }
  return assets;
}
