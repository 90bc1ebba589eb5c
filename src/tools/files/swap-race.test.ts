import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { AnyTool } from "../../registry/registry.js";
import type { ToolContext } from "../../seam/context.js";
import { FileRoot } from "./file-root.js";
import { filesToolkit } from "./toolkit.js";

/**
 * A second process flips `mid` between a real directory and a symlink out of the root, and `leaf` between
 * a real file and a symlink out, as fast as it can, while the tools run. Whatever state each call catches
 * — before, during or after a check — it must never see or touch the outside.
 */
const SWAPPER = `
const fs = require("node:fs");
const [outDir, outFile] = process.argv.slice(1);
const attempt = (action) => { try { action(); } catch {} };
for (;;) {
  attempt(() => fs.renameSync("mid.real", "mid"));
  attempt(() => fs.renameSync("mid", "mid.real"));
  attempt(() => fs.symlinkSync(outDir, "mid"));
  attempt(() => fs.unlinkSync("mid"));
  attempt(() => { fs.linkSync("leaf.real", "leaf.tmp"); fs.renameSync("leaf.tmp", "leaf"); });
  attempt(() => { fs.symlinkSync(outFile, "leaf.tmp"); fs.renameSync("leaf.tmp", "leaf"); });
}
`;

const ROUNDS = 400;
/** What a racing call may end as: "not found" and "already exists" are honest answers mid-swap. */
const CLEAN = ["ok", "refused:not_authorized", "refused:invalid_input", "refused:precondition_failed"];
const hasProc = existsSync("/proc/self/fd");

let base: string;
let outside: string;
let swapper: ChildProcess | undefined;

/** Stops the swapper this file started (by its handle) and waits until it has exited. */
async function stopSwapper(): Promise<void> {
  const running = swapper;
  swapper = undefined;
  if (!running || running.exitCode !== null || running.signalCode !== null) return;
  const exited = new Promise((resolve) => running.once("exit", resolve));
  running.kill("SIGKILL");
  await exited;
}

async function prepareRoot(name: string): Promise<string> {
  const root = join(base, name);
  await mkdir(join(root, "mid.real"), { recursive: true });
  await writeFile(join(root, "mid.real", "secret.txt"), "inside needle\n");
  await writeFile(join(root, "leaf.real"), "inside leaf\n");
  swapper = spawn(process.execPath, ["-e", SWAPPER, outside, join(outside, "secret.txt")], {
    cwd: root,
    stdio: "ignore",
  });
  onTestFinished(stopSwapper);
  return root;
}

beforeAll(async () => {
  base = await realpath(await mkdtemp(join(tmpdir(), "toolreg-race-")));
  outside = join(base, "outside");
  await mkdir(outside);
  await writeFile(join(outside, "secret.txt"), "OUTSIDE needle\n");
});
afterAll(async () => {
  await stopSwapper();
  await rm(base, { recursive: true, force: true });
});

const context = { signal: new AbortController().signal } as ToolContext;

/** Runs a call, turning a refusal into its code: races make refusals and "not found" expected outcomes. */
async function attempt(action: () => unknown): Promise<string> {
  try {
    const result = (await action()) as { content?: string } | string;
    return typeof result === "string" ? result : JSON.stringify(result);
  } catch (error) {
    return `refused:${(error as { envelopeCode?: string }).envelopeCode ?? (error as Error).message}`;
  }
}

describe.skipIf(!hasProc)("a symlink swapped in between check and open cannot escape", () => {
  it("the swap is live: the same path resolves inside and outside the root while the tests run", async () => {
    const root = await prepareRoot("naive");
    const seen = new Set<string>();
    // How soon both sides show depends on the scheduler, so this waits for them within a bound rather than
    // for a leak through a naive check-then-open, which a loaded machine may not schedule in time.
    for (const started = Date.now(); seen.size < 2 && Date.now() - started < 10_000; ) {
      try {
        const resolved = await realpath(join(root, "mid", "secret.txt"));
        seen.add(resolved.startsWith(`${root}/`) ? "inside" : "outside");
      } catch {
        // Caught mid-swap: neither side.
      }
    }
    expect([...seen].sort()).toEqual(["inside", "outside"]);
  });

  it("fs_read, fs_list and fs_search never reach the outside", async () => {
    const root = FileRoot.open(await prepareRoot("reads"), "readRoot");
    expect(root.strategy).toBe("descriptor");
    const [read, list, search] = filesToolkit.withEnv({ readRoot: root }) as [AnyTool, AnyTool, AnyTool];
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all([
        attempt(() => read.run({ path: "mid/secret.txt" }, context)),
        attempt(() => read.run({ path: "leaf" }, context)),
        attempt(() => list.run({ path: "mid" }, context)),
        attempt(() => search.run({ query: "needle", path: "mid" }, context)),
        attempt(() => search.run({ query: "needle" }, context)),
      ]);
      for (const result of results) {
        expect(result).not.toContain("OUTSIDE");
        const kind = result.startsWith("refused:") ? result : "ok";
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }
    }
    // Every outcome is a result or a clean refusal, never a raw error; and the race was exercised:
    // some calls caught the directory, some the symlink.
    for (const kind of outcomes.keys()) expect(CLEAN).toContain(kind);
    expect(outcomes.get("ok")).toBeGreaterThan(0);
    expect(outcomes.get("refused:not_authorized")).toBeGreaterThan(0);
  });

  it("fs_write never creates or changes a file outside", async () => {
    const root = FileRoot.open(await prepareRoot("writes"), "writeRoot");
    const [write] = filesToolkit.withEnv({ writeRoot: root }) as [AnyTool];
    const before = await readdir(outside);
    const outcomes = new Map<string, number>();
    for (let round = 0; round < ROUNDS; round++) {
      const results = await Promise.all([
        attempt(() => write.run({ path: `mid/new-${round}.txt`, content: "PWNED" }, context)),
        attempt(() => write.run({ path: "mid/secret.txt", content: "PWNED", mode: "overwrite" }, context)),
        attempt(() => write.run({ path: "mid/secret.txt", content: "PWNED", mode: "append" }, context)),
        attempt(() => write.run({ path: "leaf", content: "PWNED", mode: "append" }, context)),
      ]);
      for (const result of results) {
        const kind = result.startsWith("refused:") ? result : "ok";
        outcomes.set(kind, (outcomes.get(kind) ?? 0) + 1);
      }
    }
    expect(await readdir(outside)).toEqual(before);
    expect(await readFile(join(outside, "secret.txt"), "utf8")).toBe("OUTSIDE needle\n");
    for (const kind of outcomes.keys()) expect(CLEAN).toContain(kind);
    expect(outcomes.get("ok")).toBeGreaterThan(0);
    expect(outcomes.get("refused:not_authorized")).toBeGreaterThan(0);
  });
});
