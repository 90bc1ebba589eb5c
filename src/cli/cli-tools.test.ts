import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { createArtifactOutputStore } from "../artifacts/artifact-output-store.js";
import { createFileArtifactStore } from "../artifacts/file-artifact-store.js";
import { createExecutionContext } from "../seam/context.js";
import { processIo, UsageError } from "./cli-io.js";
import { serveTools, type ToolFlags } from "./cli-tools.js";
import { loadSettings } from "./config-file.js";

const dir = mkdtempSync(join(tmpdir(), "toolreg-toolkits-"));
for (const folder of ["read", "other", "write"]) mkdirSync(join(dir, folder));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const io = { ...processIo, cwd: dir };
const meta = {
  seam: () => {
    throw new Error("not called");
  },
  outputs: createArtifactOutputStore(createFileArtifactStore(join(dir, "outputs"))),
};
const META = ["find_tools", "learn_tools", "execute_tool", "read_tool_output"];

async function served(config: unknown, flags: ToolFlags = {}) {
  writeFileSync(join(dir, "toolreg.config.json"), JSON.stringify(config));
  const tools = await serveTools(flags, loadSettings({}, io).toolkits, meta, io);
  await tools.close();
  return tools.tools;
}

const names = async (config: unknown, flags: ToolFlags = {}) =>
  (await served(config, flags)).map((tool) => tool.name).filter((name) => !META.includes(name));

describe("toolkits from the config file", () => {
  it("serves exactly the toolkits listed, in order, each as configured", async () => {
    expect(
      await names({
        toolkits: [{ toolkit: "files", config: { readRoot: join(dir, "read") } }, { toolkit: "general" }],
      }),
    ).toEqual(["fs_read", "fs_list", "fs_search", "now", "calculate", "think", "sleep"]);
  });

  it("narrows a toolkit with include and exclude, and refuses a tool it does not have", async () => {
    expect(await names({ toolkits: [{ toolkit: "general", include: ["now", "calculate"] }] })).toEqual([
      "now",
      "calculate",
    ]);
    expect(await names({ toolkits: [{ toolkit: "general", exclude: ["sleep"] }] })).toEqual([
      "now",
      "calculate",
      "think",
    ]);
    await expect(served({ toolkits: [{ toolkit: "general", include: ["fs_read"] }] })).rejects.toThrow(
      "toolkit general: it has no tool named fs_read",
    );
  });

  it("takes a flag as a shortcut into its toolkit's entry, over the file's value", async () => {
    const tools = await served(
      { toolkits: [{ toolkit: "files", config: { readRoot: join(dir, "other") } }] },
      { readRoot: join(dir, "read"), writeRoot: join(dir, "write") },
    );
    expect(tools.map((tool) => tool.name)).toContain("fs_write");
    writeFileSync(join(dir, "read", "here.txt"), "read root");
    const context = createExecutionContext({ tenantId: "t", principalId: "p", runId: "r", toolCallId: "c" });
    const read = tools.find((tool) => tool.name === "fs_read");
    expect(
      await read?.run(
        { path: "here.txt" },
        {
          ...context,
          signal: new AbortController().signal,
          deadline: Date.now() + 5000,
          approvalId: undefined,
        },
      ),
    ).toMatchObject({ content: expect.stringContaining("read root") });
  });

  it("refuses an unknown toolkit and a bad configuration with a usage error naming them", async () => {
    await expect(served({ toolkits: [{ toolkit: "crm" }] })).rejects.toThrow(
      /toolkit crm: not a built-in toolkit \(general, web, search, data, files, generate, sql, shell, demo, todo, memory, schedules, knowledge, human, attachments, documents, skills, audio\) nor an installed package/,
    );
    await expect(served({ toolkits: [{ toolkit: "files", config: { readRoot: 7 } }] })).rejects.toThrow(
      UsageError,
    );
    await expect(served({ toolkits: [{ toolkit: "files", config: { readRoot: 7 } }] })).rejects.toThrow(
      /toolkit files: readRoot: /,
    );
    await expect(served({ toolkits: [{ toolkit: "files", config: { readroot: "x" } }] })).rejects.toThrow(
      /toolkit files: .*readroot/,
    );
  });

  it("loads a deployment's own toolkit by module path, and a vendor package by name", async () => {
    const path = fileURLToPath(new URL("../../test/fixtures/toolkits/notes-toolkit.ts", import.meta.url));
    const tools = await served({
      toolkits: [
        { toolkit: path, config: { notes: { hello: "world" } } },
        { toolkit: "@toolreg/tools-github", include: ["github_get_issue"] },
      ],
    });
    expect(tools.map((tool) => tool.name).filter((name) => !META.includes(name))).toEqual([
      "notes_read",
      "github_get_issue",
    ]);
    expect(tools.find((tool) => tool.name === "github_get_issue")?.provenance).toBe(
      "package:@toolreg/tools-github",
    );
  });
});
