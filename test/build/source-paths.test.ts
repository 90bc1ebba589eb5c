import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const read = (path: string) => JSON.parse(readFileSync(new URL(`../../${path}`, import.meta.url), "utf8"));

describe("tsconfig paths", () => {
  it("aim every export of the package at its source, so the vendor packages typecheck against it", () => {
    const { exports } = read("package.json") as { exports: Record<string, string | { import: string }> };
    const expected: Record<string, string[]> = {};
    for (const [subpath, target] of Object.entries(exports)) {
      if (typeof target === "string") continue;
      const name = subpath === "." ? "toolreg" : `toolreg/${subpath.slice(2)}`;
      expected[name] = [target.import.replace(/^\.\/dist\//, "./src/").replace(/\.js$/, ".ts")];
    }
    expect(read("tsconfig.json").compilerOptions.paths).toEqual(expected);
  });
});
