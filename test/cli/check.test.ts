import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runToolreg } from "./run-cli.js";

const BROKEN = fileURLToPath(new URL("../fixtures/broken-catalogue/catalogue.mjs", import.meta.url));
const cwd = () => mkdtempSync(join(tmpdir(), "toolreg-check-"));

describe("toolreg check", () => {
  it("passes on the default catalogue", async () => {
    const result = await runToolreg(["check"], cwd());
    expect(result.code).toBe(0);
    expect(result.stdout.split("\n")).toEqual([
      "upstream deduplication: alerts_write, http_write, linear_comment, linear_create_issue (a lost run of these runs again under its key; of any other write it is reported unknown)",
      "catalogue ok: 143 tools",
      "",
    ]);
  });

  it("names every problem of a catalogue that breaks each rule once, and exits 1", async () => {
    const result = await runToolreg(["check", "--registry", BROKEN], cwd());
    expect(result.code).toBe(1);
    const docs = join(BROKEN, "..", "docs");
    expect(result.stdout.trimEnd().split("\n")).toEqual([
      "upstream deduplication: none (a lost run of these runs again under its key; of any other write it is reported unknown)",
      `docs: documented_read docs entry ${docs}/documented_read.md is out of date; run toolreg docs`,
      `docs: undocumented_tool has no docs entry (${docs}/undocumented_tool.md); run toolreg docs`,
      'override: quiet_write overrides derived approval always with never ("the fixture says so") and the override is not in the reviewed list',
      "override: vanished_tool.approval is in the reviewed overrides list but no tool overrides it",
      'category: odd_category category "social" is not in the category list',
      "triage: tools-social/* package tools-social has a publishing tool, so its directed tools must be named one by one",
      "triage: ghost_tool is in the directed list but no tool has that name",
      "triage: tools-ghost/* is in the directed list but no tool is in package tools-ghost",
      "triage: untriaged_write is destructive but in neither the publishing nor the directed list",
      "triage: both_lists is in both the publishing and the directed list",
    ]);
    expect(result.stderr).toBe("10 problems in a catalogue of 8 tools\n");
  });
});
