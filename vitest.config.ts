import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const root = new URL("./", import.meta.url);
const { exports } = JSON.parse(readFileSync(new URL("package.json", root), "utf8")) as {
  exports: Record<string, string | { import: string }>;
};

/**
 * `toolreg` and its subpaths as the vendor packages import them, aimed at the source instead of dist: their
 * tests run against the code beside them, as their typecheck does (tsconfig paths).
 */
const sourceAliases = Object.entries(exports).flatMap(([subpath, target]) => {
  if (typeof target === "string" || !target.import.startsWith("./dist/")) return [];
  const name = subpath === "." ? "toolreg" : `toolreg/${subpath.slice(2)}`;
  const source = target.import.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts");
  return [
    {
      find: new RegExp(`^${name.replaceAll("/", "\\/")}$`),
      replacement: fileURLToPath(new URL(source, root)),
    },
  ];
});

export default defineConfig({
  resolve: { alias: sourceAliases },
  test: {
    include: [
      "src/**/*.test.ts",
      "test/**/*.test.ts",
      "examples/**/*.test.ts",
      "packages/*/src/**/*.test.ts",
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Vitest keeps one CPU for itself by default, which on a 2-CPU machine runs the files one at a time; they
    // mostly wait on servers and child processes, so every CPU runs a file.
    maxWorkers: availableParallelism(),
    globalSetup: ["test/global-setup.ts"],
  },
});
