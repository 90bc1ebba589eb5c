import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { serveTools, type ToolFlags } from "./cli-tools.js";
import { WIRED_BY, whatServes } from "./wiring-flags.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-wiring-"));
for (const folder of ["read", "write", "artifacts"]) mkdirSync(join(dir, folder));
for (const file of ["read.db", "write.db"]) new Database(join(dir, file)).close();
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FLAG_VALUES: Record<string, ToolFlags> = {
  "--read-root": { readRoot: join(dir, "read") },
  "--write-root": { writeRoot: join(dir, "write") },
  "--artifacts-dir": { artifactsDir: join(dir, "artifacts") },
  "--sql-read": { sqlRead: `sqlite:${join(dir, "read.db")}` },
  "--sql-write": { sqlWrite: `sqlite:${join(dir, "write.db")}` },
};

async function namesServed(flags: ToolFlags): Promise<string[]> {
  const meta = {
    seam: () => {
      throw new Error("not called");
    },
    outputs: createArtifactOutputStore(createFileArtifactStore(join(dir, "outputs"))),
  };
  const served = await serveTools(flags, meta);
  await served.close();
  return served.tools.map((tool) => tool.name);
}

describe("which flag serves which tool", () => {
  it("lists exactly the tools each flag adds, and every flag that adds tools", async () => {
    expect(Object.keys(FLAG_VALUES).sort()).toEqual(Object.keys(WIRED_BY).sort());
    const bare = new Set(await namesServed({}));
    for (const [flag, flags] of Object.entries(FLAG_VALUES)) {
      const added = (await namesServed(flags)).filter((name) => !bare.has(name));
      expect(added.sort(), flag).toEqual([...(WIRED_BY[flag] ?? [])].sort());
    }
  });

  it("says what serves a tool a command lacks", () => {
    expect(whatServes("fs_write")).toBe("fs_write is served when --write-root is given");
    expect(whatServes("shell_exec")).toContain("bubblewrap");
    expect(whatServes("outbox_send")).toContain("--registry");
  });
});
