/** @module A tree of files, links out and a second root, for the file tools' tests; one copy for every suite. */
import { mkdir, mkdtemp, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Envelope } from "../../src/seam/envelope.js";
import { createTestHarness } from "../../src/test/test-harness.js";
import { FileRoot, type OpenStrategy } from "../../src/tools/files/file-root.js";
import { filesToolkit } from "../../src/tools/files/toolkit.js";

export interface FileTree {
  base: string;
  readRoot: string;
  writeRoot: string;
  outside: string;
}

/** A read root with text, binary and links (in and out), a write root, and an outside folder with a secret. */
export async function createFileTree(): Promise<FileTree> {
  const base = await mkdtemp(join(tmpdir(), "toolreg-files-"));
  const outside = join(base, "outside");
  const readRoot = join(base, "read");
  const writeRoot = join(base, "write");
  await mkdir(join(outside, "dir"), { recursive: true });
  await writeFile(join(outside, "secret.txt"), "OUTSIDE SECRET needle\n");
  await writeFile(join(outside, "dir", "x.txt"), "OUTSIDE needle\n");
  await mkdir(join(readRoot, "docs", "deep", "a", "b"), { recursive: true });
  await writeFile(join(readRoot, "hello.txt"), "line 1\nline 2\nline 3\n");
  await writeFile(
    join(readRoot, "docs", "guide.md"),
    "# Guide\nfind the needle here\nno match\nNEEDLE again\n",
  );
  await writeFile(join(readRoot, "docs", "deep", "a", "b", "c.txt"), "a needle deep down\n");
  await writeFile(join(readRoot, "binary.bin"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 1, 2, 3]));
  await writeFile(join(readRoot, "latin1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9]));
  await symlink("docs", join(readRoot, "link-in"));
  await symlink(join(readRoot, "docs", "guide.md"), join(readRoot, "link-abs-in"));
  await mkdir(writeRoot);
  await writeFile(join(writeRoot, "existing.txt"), "old\n");
  for (const root of [readRoot, writeRoot]) {
    await symlink("../outside/secret.txt", join(root, "leaf-out"));
    await symlink(join(outside, "secret.txt"), join(root, "leaf-out-abs"));
    await symlink("../outside/missing.txt", join(root, "dangling-out"));
    await symlink("../outside", join(root, "mid-out"));
  }
  return { base, readRoot, writeRoot, outside };
}

export const allowWrites = {
  approvalPolicy: { decide: () => ({ decision: "allow" as const, reason: "test" }) },
};

/** All four file tools over the tree's roots, writes pre-approved. */
export function fileHarness(tree: FileTree, strategy?: OpenStrategy) {
  const read = FileRoot.open(tree.readRoot, "readRoot", strategy);
  const write = FileRoot.open(tree.writeRoot, "writeRoot", strategy);
  return createTestHarness(filesToolkit.withEnv({ readRoot: read, writeRoot: write }), allowWrites);
}

/** `code:rule` of a refusal, or `ok: …` when nothing was refused. */
export function refusedRule(envelope: Envelope): string {
  if (envelope.ok) return `ok: ${envelope.content.slice(0, 80)}`;
  const rule = envelope.error.details?.rule;
  return `${envelope.error.code}${typeof rule === "string" ? `:${rule}` : ""}`;
}
