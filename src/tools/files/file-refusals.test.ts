import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, symlink } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFileTree, fileHarness, refusedRule } from "../../../test/support/file-tree.js";
import type { OpenStrategy } from "./file-root.js";
import { fileTools } from "./index.js";

let base: string;
let readRoot: string;
let writeRoot: string;
let outside: string;

beforeAll(async () => {
  ({ base, readRoot, writeRoot, outside } = await createFileTree());
});
afterAll(() => rm(base, { recursive: true, force: true }));

function harness(strategy?: OpenStrategy) {
  return fileHarness({ base, readRoot, writeRoot, outside }, strategy);
}

/** Every refusal class, with targets that exist and targets that do not. */
const HOSTILE: [string, string][] = [
  ["/etc/passwd", "not_authorized:absolute-path"],
  ["/nonexistent/file", "not_authorized:absolute-path"],
  ["../outside/secret.txt", "not_authorized:parent-segment"],
  ["docs/../hello.txt", "not_authorized:parent-segment"],
  ["../nonexistent", "not_authorized:parent-segment"],
  ["leaf-out", "not_authorized:symlink-escape"],
  ["leaf-out-abs", "not_authorized:symlink-escape"],
  ["dangling-out", "not_authorized:symlink-escape"],
  ["mid-out/secret.txt", "not_authorized:symlink-escape"],
  ["mid-out/dir/x.txt", "not_authorized:symlink-escape"],
  ["mid-out/nonexistent.txt", "not_authorized:symlink-escape"],
  ["hello.txt\0.png", "not_authorized:nul-byte"],
  ["\0", "not_authorized:nul-byte"],
];

describe.each(["descriptor", "path"] as const)("file tools refuse every escape (%s strategy)", (strategy) => {
  it("fs_read", async () => {
    const { seam, context } = harness(strategy);
    for (const [path, expected] of HOSTILE) {
      expect([path, refusedRule(await seam.call(context(), "fs_read", { path }))]).toEqual([path, expected]);
    }
    expect(refusedRule(await seam.call(context(), "fs_read", { path: `${readRoot}/hello.txt` }))).toBe(
      "not_authorized:absolute-path",
    );
  });

  it("fs_list", async () => {
    const { seam, context } = harness(strategy);
    for (const [path, expected] of [...HOSTILE, ["mid-out", "not_authorized:symlink-escape"] as const]) {
      expect([path, refusedRule(await seam.call(context(), "fs_list", { path }))]).toEqual([path, expected]);
    }
  });

  it("fs_search", async () => {
    const { seam, context } = harness(strategy);
    for (const [path, expected] of [...HOSTILE, ["mid-out", "not_authorized:symlink-escape"] as const]) {
      const envelope = await seam.call(context(), "fs_search", { query: "needle", path });
      expect([path, refusedRule(envelope)]).toEqual([path, expected]);
    }
  });

  it("fs_write, leaving the outside untouched", async () => {
    const { seam, context } = harness(strategy);
    const before = await snapshot(outside);
    const cases: [string, string][] = [
      ["/tmp/toolreg-escape.txt", "not_authorized:absolute-path"],
      ["../outside/new.txt", "not_authorized:parent-segment"],
      ["new/../../outside/new.txt", "not_authorized:parent-segment"],
      ["leaf-out", "not_authorized:symlink-target"],
      ["leaf-out-abs", "not_authorized:symlink-target"],
      ["dangling-out", "not_authorized:symlink-target"],
      ["mid-out/new.txt", "not_authorized:symlink-escape"],
      ["mid-out/secret.txt", "not_authorized:symlink-escape"],
      ["mid-out/newdir/new.txt", "not_authorized:symlink-escape"],
      ["new\0.txt", "not_authorized:nul-byte"],
    ];
    for (const [path, expected] of cases) {
      for (const mode of ["create", "overwrite", "append"]) {
        const envelope = await seam.call(context(), "fs_write", { path, content: "PWNED", mode });
        expect([path, mode, refusedRule(envelope)]).toEqual([path, mode, expected]);
      }
    }
    expect(await snapshot(outside)).toEqual(before);
    expect(existsSync("/tmp/toolreg-escape.txt")).toBe(false);
  });
});

async function snapshot(directory: string): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  for (const entry of await readdir(directory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files[path] = await readFile(path, "utf8");
  }
  return files;
}

describe("fileTools module", () => {
  it("offers each tool exactly when its root is given", () => {
    const names = (deps: Parameters<typeof fileTools>[0]) => fileTools(deps).map((tool) => tool.name);
    expect(names({})).toEqual([]);
    expect(names({ readRoot })).toEqual(["fs_read", "fs_list", "fs_search"]);
    expect(names({ writeRoot })).toEqual(["fs_write"]);
    expect(names({ readRoot, writeRoot })).toEqual(["fs_read", "fs_list", "fs_search", "fs_write"]);
  });

  it("declares reads as never-approved and the write as policy, with its reason recorded", () => {
    const tools = fileTools({ readRoot, writeRoot });
    expect(tools.map((tool) => [tool.name, tool.category, tool.effect, tool.approval])).toEqual([
      ["fs_read", "files", "read", "never"],
      ["fs_list", "files", "read", "never"],
      ["fs_search", "files", "read", "never"],
      ["fs_write", "files", "internal-write", "policy"],
    ]);
    expect(tools[3]?.overrides).toEqual([
      {
        field: "approval",
        derived: "never",
        declared: "policy",
        reason: expect.stringContaining("a model chooses"),
      },
    ]);
  });

  it("refuses overlapping roots and unusable ones at construction", async () => {
    expect(() => fileTools({ readRoot, writeRoot: readRoot })).toThrow(/same directory/);
    expect(() => fileTools({ readRoot, writeRoot: join(readRoot, "docs") })).toThrow(
      /writeRoot lies inside readRoot/,
    );
    expect(() => fileTools({ readRoot: join(readRoot, "docs"), writeRoot: readRoot })).toThrow(
      /readRoot lies inside writeRoot/,
    );
    // The same directory spelled through a symlink is still the same directory.
    await symlink(readRoot, join(base, "read-alias"));
    expect(() => fileTools({ readRoot, writeRoot: join(base, "read-alias") })).toThrow(/same directory/);
    expect(() => fileTools({ readRoot: join(base, "missing") })).toThrow(/readRoot .* cannot be used/);
    expect(() => fileTools({ writeRoot: join(readRoot, "hello.txt") })).toThrow(
      /writeRoot .* is not a directory/,
    );
    // Siblings that share a prefix do not overlap.
    await mkdir(join(base, "read-more"));
    expect(() => fileTools({ readRoot, writeRoot: join(base, "read-more") })).not.toThrow();
  });
});
