import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readlink, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ToolFailure } from "../../errors/tool-failure.js";
import { FileRoot, type OpenStrategy } from "./file-root.js";
import { openBeneath, openParentBeneath, resolveLinkTarget } from "./open-beneath.js";

let base: string;
let rootPath: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "toolreg-beneath-"));
  rootPath = join(base, "root");
  await mkdir(join(base, "outside", "dir"), { recursive: true });
  await writeFile(join(base, "outside", "secret.txt"), "OUTSIDE");
  await mkdir(join(rootPath, "a", "b"), { recursive: true });
  await writeFile(join(rootPath, "a", "b", "file.txt"), "inside");
  await writeFile(join(rootPath, "top.txt"), "top");
  await symlink("a", join(rootPath, "in"));
  await symlink("b/file.txt", join(rootPath, "a", "file-link"));
  await symlink("../top.txt", join(rootPath, "a", "up-in"));
  await symlink(join(rootPath, "a"), join(rootPath, "abs-in"));
  await symlink("../outside", join(rootPath, "out"));
  await symlink("../../outside/secret.txt", join(rootPath, "a", "up-out"));
  await symlink(join(base, "outside"), join(rootPath, "abs-out"));
  await symlink("/", join(rootPath, "slash"));
  await symlink("loop", join(rootPath, "loop"));
  await symlink("../outside/missing", join(rootPath, "dangling-out"));
  await symlink("missing", join(rootPath, "dangling-in"));
});
afterAll(() => rm(base, { recursive: true, force: true }));

const hasProc = existsSync("/proc/self/fd");
const strategies: OpenStrategy[] = hasProc ? ["descriptor", "path"] : ["path"];

async function outcome(root: FileRoot, path: string): Promise<string> {
  try {
    const opened = await openBeneath(root, path);
    await opened.handle.close();
    return `ok:${opened.path}`;
  } catch (error) {
    if (!ToolFailure.isInstance(error)) throw error;
    const rule = (error.details as { rule?: string } | undefined)?.rule;
    return `${error.envelopeCode}${rule ? `:${rule}` : ""}`;
  }
}

describe.each(strategies)("openBeneath (%s strategy)", (strategy) => {
  const root = () => FileRoot.open(rootPath, "root", strategy);

  it("opens plain paths and follows symlinks that stay inside the root", async () => {
    expect(await outcome(root(), "a/b/file.txt")).toBe("ok:a/b/file.txt");
    expect(await outcome(root(), ".")).toBe("ok:");
    expect(await outcome(root(), "in/b/file.txt")).toBe("ok:a/b/file.txt");
    expect(await outcome(root(), "a/file-link")).toBe("ok:a/b/file.txt");
    expect(await outcome(root(), "in/up-in")).toBe("ok:top.txt");
    expect(await outcome(root(), "abs-in/b")).toBe("ok:a/b");
  });

  it("refuses symlinks out of the root at the leaf and in the middle, whether or not the target exists", async () => {
    for (const path of [
      "out",
      "out/secret.txt",
      "out/dir/nothing",
      "abs-out/secret.txt",
      "a/up-out",
      "in/up-out",
    ]) {
      expect(await outcome(root(), path)).toBe("not_authorized:symlink-escape");
    }
    expect(await outcome(root(), "slash/etc/passwd")).toBe("not_authorized:symlink-escape");
    expect(await outcome(root(), "dangling-out")).toBe("not_authorized:symlink-escape");
    expect(await outcome(root(), "dangling-out/deeper")).toBe("not_authorized:symlink-escape");
  });

  it("refuses a symlink loop, and reports what is missing or not a directory", async () => {
    expect(await outcome(root(), "loop")).toBe("not_authorized:symlink-loop");
    expect(await outcome(root(), "dangling-in")).toBe("invalid_input");
    expect(await outcome(root(), "nope/deeper")).toBe("invalid_input");
    expect(await outcome(root(), "top.txt/x")).toBe("invalid_input");
  });

  it("opens a parent for writing, creating directories inside the root only", async () => {
    const parent = await openParentBeneath(root(), "in/new/deeper/file.txt", { create: true });
    await parent.directory.handle.close();
    expect(parent).toMatchObject({ name: "file.txt", path: "a/new/deeper/file.txt" });
    expect(existsSync(join(rootPath, "a", "new", "deeper"))).toBe(true);
    await expect(openParentBeneath(root(), "out/made/file.txt", { create: true })).rejects.toMatchObject({
      details: { rule: "symlink-escape" },
    });
    expect(existsSync(join(base, "outside", "made"))).toBe(false);
    // The last component is the caller's to judge: a parent walk never resolves it.
    const leaf = await openParentBeneath(root(), "out", { create: false });
    await leaf.directory.handle.close();
    expect(leaf).toMatchObject({ name: "out", path: "out" });
  });

  it.skipIf(!hasProc)("property: hostile relative paths never open anything outside the root", async () => {
    const rootReal = root().real;
    const segment = fc.oneof(
      fc.constantFrom(
        "..",
        ".",
        "",
        "a",
        "b",
        "file.txt",
        "in",
        "out",
        "abs-in",
        "abs-out",
        "up-in",
        "up-out",
      ),
      fc.constantFrom("slash", "loop", "dangling-out", "é", "日本", "\0", "x\0y", "...", " ", "\\", "%2e%2e"),
      fc.string({ maxLength: 4 }),
      fc.string({ unit: "grapheme", maxLength: 3 }),
    );
    const hostile = fc.record({
      lead: fc.constantFrom("", "/", "./", "//"),
      segments: fc.array(segment, { maxLength: 7 }),
      separator: fc.constantFrom("/", "//", "/./"),
    });
    const seen = { opened: 0, refused: 0 };
    await fc.assert(
      fc.asyncProperty(hostile, async ({ lead, segments, separator }) => {
        const path = lead + segments.join(separator);
        const lexicallyHostile =
          path.includes("\0") || path.startsWith("/") || path.split("/").includes("..");
        let opened: Awaited<ReturnType<typeof openBeneath>> | undefined;
        try {
          opened = await openBeneath(root(), path);
        } catch (error) {
          expect(ToolFailure.isInstance(error)).toBe(true);
          const code = (error as ToolFailure).envelopeCode;
          expect(["not_authorized", "invalid_input"]).toContain(code);
          if (lexicallyHostile) expect(code).toBe("not_authorized");
          seen.refused++;
          return;
        }
        try {
          expect(lexicallyHostile).toBe(false);
          // The kernel's own name for what was opened: the ground truth, whatever the resolver believed.
          const actual = await readlink(`/proc/self/fd/${opened.handle.fd}`);
          expect(actual === rootReal || actual.startsWith(`${rootReal}/`)).toBe(true);
          seen.opened++;
        } finally {
          await opened.handle.close();
        }
      }),
      { numRuns: 400 },
    );
    // Both branches ran: the generator reaches real files as well as refusals.
    expect(seen.opened).toBeGreaterThan(10);
    expect(seen.refused).toBeGreaterThan(10);
  });
});

describe("resolveLinkTarget", () => {
  it("resolves lexically against the walked segments and refuses anything that leaves the root", () => {
    const root = FileRoot.open(rootPath, "root");
    expect(resolveLinkTarget(root, ["a", "b"], "../c")).toEqual(["a", "c"]);
    expect(resolveLinkTarget(root, ["a"], "../../x")).toBeUndefined();
    expect(resolveLinkTarget(root, [], `${root.real}/a/./b`)).toEqual(["a", "b"]);
    expect(resolveLinkTarget(root, [], `${root.real}/../root/a`)).toBeUndefined();
    expect(resolveLinkTarget(root, [], `${root.real}-sibling/a`)).toBeUndefined();
    expect(resolveLinkTarget(root, ["a"], "/etc")).toBeUndefined();
  });
});
