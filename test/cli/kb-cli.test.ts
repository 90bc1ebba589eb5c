/**
 * `toolreg kb` on the local state, as a user runs it: a markdown file added for one principal, found by that
 * principal's search_knowledge with a citation and by nobody else's; re-indexed in place with --id; a text
 * added for the tenant; listed; removed; and the mistakes refused with what to do.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, expect, it } from "vitest";
import { runToolreg } from "./run-cli.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-kb-cli-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

const search = async (principal: string, query: string) => {
  const called = await runToolreg(
    ["--principal", principal, "call", "search_knowledge", "--input", JSON.stringify({ query })],
    cwd,
  );
  expect(called.code, called.stderr).toBe(0);
  return JSON.parse(called.stdout) as {
    data: { hits: { sourceId: string; text: string }[] };
    provenance?: { citations: { title: string; location: { headings: string[] } }[] };
  };
};

it("adds, finds, re-indexes, lists and removes sources, each readable only by its subjects", async () => {
  writeFileSync(join(cwd, "handbook.md"), "# Handbook\n## Parking\nVisitors park on level two.\n");
  const added = await runToolreg(["kb", "add", "handbook.md", "--subject", "principal:ada"], cwd);
  expect(added.code, added.stderr).toBe(0);
  const id = /Added (ks_[0-9a-f]{16}) "Handbook": 1 chunks \(1 embedded\), readable by principal:ada/.exec(
    added.stdout,
  )?.[1];
  expect(id, added.stdout).toBeDefined();

  const ada = await search("ada", "where do visitors park");
  expect(ada.data.hits).toEqual([
    expect.objectContaining({ sourceId: id, text: expect.stringContaining("level two") }),
  ]);
  expect(ada.provenance?.citations).toEqual([
    expect.objectContaining({ title: "Handbook", location: { headings: ["Handbook", "Parking"] } }),
  ]);
  expect((await search("bob", "where do visitors park")).data.hits).toEqual([]);

  writeFileSync(join(cwd, "handbook.md"), "# Handbook\n## Parking\nVisitors park on level three.\n");
  // No --subject on a re-index: the source keeps its readers, it is not widened to the tenant.
  const again = await runToolreg(["kb", "add", "handbook.md", "--id", id as string], cwd);
  expect(again.stdout).toContain(`Re-indexed ${id}`);
  expect(again.stdout).toContain("readable by principal:ada\n");
  expect((await search("ada", "visitors park")).data.hits[0]?.text).toContain("level three");
  expect((await search("bob", "visitors park")).data.hits).toEqual([]);

  const text = await runToolreg(
    ["kb", "add", "--text", "The canteen opens at noon.", "--title", "Canteen"],
    cwd,
  );
  expect(text.stdout).toMatch(/readable by tenant/);
  expect((await search("bob", "canteen")).data.hits).toHaveLength(1);

  const listed = await runToolreg(["kb", "list", "--json"], cwd);
  expect((JSON.parse(listed.stdout) as { title: string }[]).map((s) => s.title)).toEqual([
    "Canteen",
    "Handbook",
  ]);
  expect((await runToolreg(["kb", "remove", id as string], cwd)).stdout).toBe(`Removed ${id}\n`);
  expect((await search("ada", "visitors park")).data.hits).toEqual([]);
}, 60_000);

it("refuses what it cannot add or remove, and says what to do", async () => {
  writeFileSync(join(cwd, "data.csv"), "a,b\n");
  for (const [args, message] of [
    [["kb", "add"], "name one FILE or URL, or give --text"],
    [["kb", "add", "x.md", "--text", "both"], "name one FILE or URL, or give --text"],
    [["kb", "add", "data.csv"], "add a .md"],
    [["kb", "add", "missing.md"], "ENOENT"],
    [["kb", "add", "--text", "   "], "the text is empty"],
    [["kb", "add", "http://127.0.0.1:9/page"], "loopback"],
    [["kb", "add", "--text", "x", "--id", "ks_0000000000000000"], "no knowledge source ks_0000000000000000"],
    [["kb", "remove", "ks_0000000000000000"], "no knowledge source ks_0000000000000000"],
  ] as const) {
    const result = await runToolreg(args, cwd);
    expect(result.code, `${args.join(" ")}: ${result.stdout}`).not.toBe(0);
    expect(result.stderr, args.join(" ")).toContain(message);
  }
  expect((await runToolreg(["kb", "list", "--json"], cwd)).stdout.trim()).toBe("[]");
}, 60_000);
