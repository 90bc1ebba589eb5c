import { execFileSync } from "node:child_process";

/** The CLI and packaging tests run the built package, so build it once before any test runs. */
export default function setup(): void {
  execFileSync(process.execPath, ["node_modules/typescript/bin/tsc", "-p", "tsconfig.build.json"], {
    stdio: "inherit",
  });
}
