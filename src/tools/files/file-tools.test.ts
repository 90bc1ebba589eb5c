import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { createFileTree, fileHarness, refusedRule } from "../../../test/support/file-tree.js";
import { createTestHarness } from "../../test/test-harness.js";
import { FILE_LIMITS } from "./file-limits.js";
import { FileRoot, type OpenStrategy } from "./file-root.js";
import { filesToolkit } from "./toolkit.js";

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
describe("fs_read through the seam", () => {
  it("ok: whole file or a line range, fenced as untrusted, in-root symlinks followed", async () => {
    const { seam, context } = harness();
    const whole = await seam.call(context(), "fs_read", { path: "hello.txt" });
    expect(whole).toMatchObject({
      ok: true,
      provenance: { source: "file:hello.txt", trusted: false },
      data: { path: "hello.txt", startLine: 1, endLine: 3, totalLines: 3, truncated: false, limit: null },
    });
    expect(whole.ok && whole.content).toContain("line 1\nline 2\nline 3");
    expect(whole.ok && whole.content).toContain("<untrusted-content");
    const range = await seam.call(context(), "fs_read", { path: "hello.txt", startLine: 2, endLine: 2 });
    expect(range).toMatchObject({ ok: true, data: { startLine: 2, endLine: 2 } });
    expect(range.ok && range.content).toContain("\nline 2\n");
    expect(range.ok && range.content).not.toContain("line 3");
    expect(await seam.call(context(), "fs_read", { path: "link-in/guide.md" })).toMatchObject({
      ok: true,
      data: { path: "docs/guide.md" },
    });
    expect(await seam.call(context(), "fs_read", { path: "link-abs-in" })).toMatchObject({
      ok: true,
      data: { path: "docs/guide.md" },
    });
  });

  it("refuses binary, directories, missing files and ranges past the end", async () => {
    const { seam, context } = harness();
    const call = (input: object) => seam.call(context(), "fs_read", input);
    expect(await call({ path: "binary.bin" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("binary"), details: { binary: true } },
    });
    expect(await call({ path: "latin1.txt" })).toMatchObject({
      ok: false,
      error: { details: { binary: true } },
    });
    expect(await call({ path: "docs" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("use fs_list") },
    });
    expect(await call({ path: "missing.txt" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("does not exist") },
    });
    expect(await call({ path: "hello.txt", startLine: 9 })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining("has 3 lines") },
    });
    expect(await call({ path: `${"n".repeat(300)}.txt` })).toMatchObject({
      ok: false,
      error: {
        code: "invalid_input",
        message: expect.stringContaining("longer than the file system allows"),
      },
    });
    expect(await call({ path: "hello.txt", startLine: 3, endLine: 2 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input" },
    });
  });

  it.skipIf(!existsSync("/usr/bin/mkfifo"))("refuses a FIFO at once instead of blocking on it", async () => {
    execFileSync("mkfifo", [join(readRoot, "pipe")]);
    onTestFinished(() => rm(join(readRoot, "pipe")));
    const { seam, context } = harness();
    expect(await seam.call(context(), "fs_read", { path: "pipe" })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", message: expect.stringContaining("not a regular file") },
    });
    expect(await seam.call(context(), "fs_search", { query: "x" })).toMatchObject({
      ok: true,
      data: { skipped: { other: 1 } },
    });
  });

  it("reports the return and scan bounds", async () => {
    const line = `${"x".repeat(99)}\n`;
    await writeFile(join(readRoot, "big.txt"), line.repeat(2_000)); // 200 KB
    await writeFile(join(readRoot, "huge.txt"), line.repeat(50_000)); // 5 MB
    onTestFinished(async () => {
      await rm(join(readRoot, "big.txt"));
      await rm(join(readRoot, "huge.txt"));
    });
    const { seam, context } = harness();
    const big = await seam.call(context(), "fs_read", { path: "big.txt" });
    expect(big).toMatchObject({
      ok: true,
      truncated: true,
      // Whole lines only: 99 bytes, then 100 with each newline.
      data: {
        truncated: true,
        limit: "returnBytes",
        endLine: Math.floor(FILE_LIMITS.read.returnBytes / 100),
      },
    });
    expect(await seam.call(context(), "fs_read", { path: "big.txt", startLine: 1_990 })).toMatchObject({
      ok: true,
      data: { startLine: 1_990, endLine: 2_000, truncated: false },
    });
    expect(
      await seam.call(context(), "fs_read", { path: "huge.txt", startLine: 40_000, endLine: 40_001 }),
    ).toMatchObject({
      ok: true,
      data: { endLine: 40_001, totalLines: null, truncated: false },
    });
    expect(await seam.call(context(), "fs_read", { path: "huge.txt", startLine: 41_900 })).toMatchObject({
      ok: true,
      data: { truncated: true, limit: "scanBytes", totalLines: null },
    });
    expect(await seam.call(context(), "fs_read", { path: "huge.txt", startLine: 45_000 })).toMatchObject({
      ok: false,
      error: { code: "invalid_input", details: { limit: "scanBytes" } },
    });
  });
});

describe("fs_list through the seam", () => {
  it("ok: one directory, sorted, symlinks listed and not followed", async () => {
    const { seam, context } = harness();
    const listed = await seam.call(context(), "fs_list", {});
    expect(listed).toMatchObject({ ok: true, data: { path: "", truncated: false, stoppedBy: [] } });
    const entries = listed.ok ? (listed.data as { entries: { path: string; type: string }[] }).entries : [];
    expect(entries.map((entry) => `${entry.path}:${entry.type}`)).toEqual([
      "binary.bin:file",
      "dangling-out:symlink",
      "docs:directory",
      "hello.txt:file",
      "latin1.txt:file",
      "leaf-out:symlink",
      "leaf-out-abs:symlink",
      "link-abs-in:symlink",
      "link-in:symlink",
      "mid-out:symlink",
    ]);
    expect(entries.find((entry) => entry.path === "hello.txt")).toEqual({
      path: "hello.txt",
      type: "file",
      size: 21,
    });
    expect(listed.ok && listed.content).toContain("docs/\n");
    expect(await seam.call(context(), "fs_list", { path: "link-in" })).toMatchObject({
      ok: true,
      data: { path: "docs", entries: [{ path: "docs/deep" }, { path: "docs/guide.md" }] },
    });
  });

  it("recursive with a depth bound, and an entry bound, each reported", async () => {
    const { seam, context } = harness();
    const deep = await seam.call(context(), "fs_list", { path: "docs", recursive: true, maxDepth: 2 });
    expect(deep).toMatchObject({ ok: true, truncated: true, data: { stoppedBy: ["maxDepth"] } });
    expect(
      deep.ok && (deep.data as { entries: { path: string }[] }).entries.map((entry) => entry.path),
    ).toEqual(["docs/deep", "docs/deep/a", "docs/guide.md"]);
    const all = await seam.call(context(), "fs_list", { path: "docs", recursive: true, maxDepth: 4 });
    expect(all).toMatchObject({ ok: true, data: { truncated: false } });
    expect(all.ok && all.content).toContain("docs/deep/a/b/c.txt (19 bytes)");
    expect(await seam.call(context(), "fs_list", { maxEntries: 2 })).toMatchObject({
      ok: true,
      truncated: true,
      data: { stoppedBy: ["maxEntries"], entries: [{ path: "binary.bin" }, { path: "dangling-out" }] },
    });
  });

  it("refuses a file, a missing directory and out-of-range bounds", async () => {
    const { seam, context } = harness();
    expect(refusedRule(await seam.call(context(), "fs_list", { path: "hello.txt" }))).toBe("invalid_input");
    expect(refusedRule(await seam.call(context(), "fs_list", { path: "missing" }))).toBe("invalid_input");
    expect(refusedRule(await seam.call(context(), "fs_list", { maxEntries: 5_000 }))).toBe("invalid_input");
    expect(refusedRule(await seam.call(context(), "fs_list", { recursive: true, maxDepth: 99 }))).toBe(
      "invalid_input",
    );
  });
});

describe("fs_search through the seam", () => {
  it("ok: literal text, sorted paths, lines and columns, fenced, outside never reached", async () => {
    const { seam, context } = harness();
    const found = await seam.call(context(), "fs_search", { query: "needle" });
    expect(found).toMatchObject({
      ok: true,
      provenance: { trusted: false },
      data: {
        matches: [
          { path: "docs/deep/a/b/c.txt", line: 1, column: 3, text: "a needle deep down" },
          { path: "docs/guide.md", line: 2, column: 10, text: "find the needle here" },
        ],
        truncated: false,
        stoppedBy: [],
        skipped: { binary: 2, symlinks: 6 },
      },
    });
    expect(found.ok && found.content).not.toContain("OUTSIDE");
    const ignoringCase = await seam.call(context(), "fs_search", {
      query: "needle",
      path: "link-in/guide.md",
      ignoreCase: true,
    });
    expect(ignoringCase).toMatchObject({
      ok: true,
      data: { matches: [{ line: 2 }, { line: 4, column: 1 }] },
    });
    // Literal, not a pattern: regex syntax matches only itself.
    expect(await seam.call(context(), "fs_search", { query: "n.*e" })).toMatchObject({
      ok: true,
      data: { matches: [] },
    });
  });

  it("reports which bound stopped it: matches, files, bytes, depth", async () => {
    const many = join(readRoot, "many");
    const bulky = join(readRoot, "bulky");
    onTestFinished(async () => {
      for (const path of [many, bulky, join(readRoot, "tall")])
        await rm(path, { recursive: true, force: true });
    });
    await mkdir(many);
    for (let i = 0; i < FILE_LIMITS.search.files + 5; i++) {
      await writeFile(join(many, `f${String(i).padStart(4, "0")}.txt`), "hit\n");
    }
    const { seam, context } = harness();
    expect(
      await seam.call(context(), "fs_search", { query: "hit", path: "many", maxMatches: 3 }),
    ).toMatchObject({
      ok: true,
      truncated: true,
      data: { matches: [{ path: "many/f0000.txt" }, {}, {}], stoppedBy: ["matches"], filesScanned: 4 },
    });
    expect(await seam.call(context(), "fs_search", { query: "absent", path: "many" })).toMatchObject({
      ok: true,
      truncated: true,
      data: { stoppedBy: ["files"], filesScanned: FILE_LIMITS.search.files },
    });
    await rm(many, { recursive: true });

    await mkdir(bulky);
    const chunk = `${"y".repeat(1_023)}\n`.repeat(1_024 * 6); // 6 MiB each
    for (const name of ["a.txt", "b.txt", "c.txt"]) await writeFile(join(bulky, name), chunk);
    expect(await seam.call(context(), "fs_search", { query: "absent", path: "bulky" })).toMatchObject({
      ok: true,
      data: { stoppedBy: ["bytes"], bytesScanned: FILE_LIMITS.search.bytes, filesScanned: 3 },
    });
    await rm(bulky, { recursive: true });

    const tall = join(readRoot, "tall", ...Array.from({ length: FILE_LIMITS.search.depth + 2 }, () => "d"));
    await mkdir(tall, { recursive: true });
    await writeFile(join(tall, "bottom.txt"), "needle\n");
    expect(await seam.call(context(), "fs_search", { query: "needle", path: "tall" })).toMatchObject({
      ok: true,
      data: { matches: [], stoppedBy: ["depth"] },
    });
    await rm(join(readRoot, "tall"), { recursive: true });
  });

  it("refuses an empty or multi-line query", async () => {
    const { seam, context } = harness();
    expect(refusedRule(await seam.call(context(), "fs_search", { query: "" }))).toBe("invalid_input");
    expect(refusedRule(await seam.call(context(), "fs_search", { query: "a\nb" }))).toBe("invalid_input");
    expect(refusedRule(await seam.call(context(), "fs_search", { query: "x", path: "missing" }))).toBe(
      "invalid_input",
    );
  });
});

describe("fs_write through the seam", () => {
  it("is gated by the host's policy: the default asks a human", async () => {
    const write = FileRoot.open(writeRoot, "writeRoot");
    const { seam, context } = createTestHarness(filesToolkit.withEnv({ writeRoot: write }));
    expect(await seam.call(context(), "fs_write", { path: "parked.txt", content: "x" })).toMatchObject({
      ok: false,
      error: { code: "approval_required" },
    });
    expect(existsSync(join(writeRoot, "parked.txt"))).toBe(false);
  });

  it("ok: create, overwrite, append; parents created inside the root", async () => {
    const { seam, context } = harness();
    const call = (input: object) => seam.call(context(), "fs_write", input);
    expect(await call({ path: "notes/day/one.md", content: "first\n" })).toMatchObject({
      ok: true,
      data: { path: "notes/day/one.md", mode: "create", created: true, bytesWritten: 6, size: 6 },
    });
    expect(await readFile(join(writeRoot, "notes/day/one.md"), "utf8")).toBe("first\n");
    expect(await call({ path: "notes/day/one.md", content: "second\n", mode: "append" })).toMatchObject({
      ok: true,
      data: { created: false, size: 13 },
    });
    expect(await readFile(join(writeRoot, "notes/day/one.md"), "utf8")).toBe("first\nsecond\n");
    expect(await call({ path: "notes/day/one.md", content: "fresh", mode: "overwrite" })).toMatchObject({
      ok: true,
      content: "Overwrote notes/day/one.md: 5 bytes written, 5 bytes in the file.",
    });
    expect(await readFile(join(writeRoot, "notes/day/one.md"), "utf8")).toBe("fresh");
    expect(await call({ path: "new-by-append.txt", content: "a", mode: "append" })).toMatchObject({
      ok: true,
      data: { created: true },
    });
    // No temporary file is left behind.
    expect((await readdir(join(writeRoot, "notes/day"))).sort()).toEqual(["one.md"]);
  });

  it("refuses what would clobber, a directory, oversized content and a bad path", async () => {
    const { seam, context } = harness();
    const call = (input: object) => seam.call(context(), "fs_write", input);
    expect(await call({ path: "existing.txt", content: "x" })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", message: expect.stringContaining("already exists") },
    });
    expect(await readFile(join(writeRoot, "existing.txt"), "utf8")).toBe("old\n");
    await mkdir(join(writeRoot, "adir"), { recursive: true });
    expect(refusedRule(await call({ path: "adir", content: "x", mode: "overwrite" }))).toBe("invalid_input");
    expect(refusedRule(await call({ path: "adir/", content: "x" }))).toBe("invalid_input");
    expect(refusedRule(await call({ path: ".", content: "x" }))).toBe("invalid_input");
    expect(refusedRule(await call({ path: "existing.txt/child", content: "x" }))).toBe("invalid_input");
    expect(refusedRule(await call({ path: `deep/${"n".repeat(256)}`, content: "x" }))).toBe("invalid_input");
    expect(existsSync(join(writeRoot, "deep"))).toBe(false);
    expect(refusedRule(await call({ path: "big.txt", content: "é".repeat(600_000) }))).toBe("invalid_input");
    expect(refusedRule(await call({ path: "big.txt", content: "x".repeat(1_048_577) }))).toBe(
      "invalid_input",
    );
    await writeFile(join(writeRoot, "large.log"), Buffer.alloc(FILE_LIMITS.write.appendFileBytes + 1, 0x61));
    expect(await call({ path: "large.log", content: "x", mode: "append" })).toMatchObject({
      ok: false,
      error: { code: "precondition_failed", details: { limit: "appendFileBytes" } },
    });
  });
});
