import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { renderShippedGoldens } from "./render-shipped.js";

const goldenDir = fileURLToPath(new URL("./__golden__/", import.meta.url));
const update = process.env.UPDATE_GOLDEN === "1";
const goldens = renderShippedGoldens();

describe("golden catalogue renderings", () => {
  it.each(Object.keys(goldens))("%s matches its golden file (UPDATE_GOLDEN=1 rewrites)", (name) => {
    const path = `${goldenDir}${name}.json.golden`;
    const rendered = goldens[name]!;
    if (update) writeFileSync(path, rendered);
    expect(existsSync(path), `${path} is missing: run with UPDATE_GOLDEN=1`).toBe(true);
    // Compared as text: any byte of difference fails.
    expect(rendered).toBe(readFileSync(path, "utf8"));
  });

  it("a second node process renders byte-identical output", () => {
    const script = fileURLToPath(new URL("./render-shipped.ts", import.meta.url));
    const tsx = fileURLToPath(new URL("../../node_modules/.bin/tsx", import.meta.url));
    const stdout = execFileSync(tsx, [script], { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    expect(stdout).toBe(JSON.stringify(goldens));
  }, 60_000);
});
