import { execFileSync } from "node:child_process";

/**
 * The CLI and packaging tests run the built package, so build it once before any test runs.
 * TOOLREG_SKIP_BUILD=1 skips it for a targeted run of tests that import the sources alone, while another
 * part of the tree is mid-change and would not build, and in CI, where `npm ci` has just built it.
 */
export default function setup(): void {
  if (process.env.TOOLREG_SKIP_BUILD === "1") return;
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
    stdio: "inherit",
  });
}
