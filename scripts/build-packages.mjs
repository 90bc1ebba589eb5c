#!/usr/bin/env node
/**
 * Runs each workspace package's own `build` script, as many at once as the machine has CPUs. A package
 * depends on toolreg's dist (built before this runs) and never on another package, so their order does not
 * matter; one at a time they took about 80 s of every CI run on two CPUs. Prints a failed build's output and
 * exits non-zero when any fails.
 */
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../packages/", import.meta.url));
const packages = readdirSync(root)
  .map((name) => join(root, name))
  .filter((dir) => {
    const manifest = join(dir, "package.json");
    return existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).scripts?.build !== undefined;
  });

/** Builds `dir`; resolves to its output when the build failed, to undefined when it passed. */
function build(dir) {
  return new Promise((resolve) => {
    const child = spawn("npm", ["run", "build", "--silent"], { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", (error) => resolve(String(error)));
    child.on("close", (code) => resolve(code === 0 ? undefined : output || `exit code ${code}`));
  });
}

const queue = [...packages];
const failures = [];
await Promise.all(
  Array.from({ length: Math.min(availableParallelism(), queue.length) }, async () => {
    for (let dir = queue.shift(); dir !== undefined; dir = queue.shift()) {
      const failure = await build(dir);
      if (failure !== undefined) failures.push(`${dir}:\n${failure}`);
    }
  }),
);
for (const failure of failures) process.stderr.write(`build failed in ${failure}\n`);
process.exitCode = failures.length === 0 ? 0 : 1;
