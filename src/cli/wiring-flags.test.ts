import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { Command } from "commander";
import { afterAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { processIo } from "./cli-io.js";
import { serveTools, type ToolFlags } from "./cli-tools.js";
import { WIRED_BY, whatServes, wiringFlags } from "./wiring-flags.js";

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
  // A folder of its own: no toolreg.config.json of the working directory decides what is served.
  const served = await serveTools(flags, undefined, meta, { ...processIo, cwd: dir });
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

describe("the flags printed for a later command", () => {
  const given = (argv: string[]) => {
    const program = new Command()
      .option("--db <path>")
      .option("--sql-write <url>")
      .option(
        "--egress-allow <class>",
        "",
        (value: string, previous: string[]) => [...previous, value],
        [] as string[],
      )
      .option("--tenant <id>", "", "local");
    program.parse(argv, { from: "user" });
    return wiringFlags(program, "/work/here");
  };

  it("makes paths absolute, keeps what was typed, and never prints a database password", () => {
    expect(given(["--db", "state.db", "--sql-write", "sqlite:data/app.db", "--tenant", "acme"])).toBe(
      "--db /work/here/state.db --sql-write sqlite:/work/here/data/app.db --tenant acme",
    );
    expect(given(["--sql-write", "postgres://app:s3cret@db.internal:5432/crm"])).toBe(
      "--sql-write 'postgres://app:****@db.internal:5432/crm'",
    );
    expect(given(["--egress-allow", "loopback", "--egress-allow", "10.0.0.0/8"])).toBe(
      "--egress-allow loopback --egress-allow 10.0.0.0/8",
    );
    // Defaults were not typed: a later command gets them by itself.
    expect(given([])).toBe("");
  });
});
