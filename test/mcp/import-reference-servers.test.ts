/**
 * The reference servers, imported over stdio as a deployment would: each tool's derived effect, a read
 * that runs, and a write that parks for approval and touches nothing.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type McpImport, mcpServer } from "../../src/mcp/import/index.js";
import { createTestHarness } from "../../src/test/test-harness.js";

const require = createRequire(import.meta.url);
const serverScript = (name: string) => require.resolve(`@modelcontextprotocol/${name}/dist/index.js`);

let folder: string;
let everything: McpImport;
let filesystem: McpImport;

beforeAll(async () => {
  folder = mkdtempSync(join(tmpdir(), "toolreg-reference-"));
  writeFileSync(join(folder, "notes.txt"), "first line\n");
  everything = await mcpServer({
    name: "everything",
    transport: {
      kind: "stdio",
      command: process.execPath,
      args: [serverScript("server-everything"), "stdio"],
    },
  });
  filesystem = await mcpServer({
    name: "filesystem",
    prefix: "fs",
    transport: {
      kind: "stdio",
      command: process.execPath,
      args: [serverScript("server-filesystem"), folder],
    },
  });
}, 30_000);

afterAll(async () => {
  await Promise.all([everything?.close(), filesystem?.close()]);
  rmSync(folder, { recursive: true, force: true });
});

const effects = (imported: McpImport) =>
  Object.fromEntries(imported.report().map((entry) => [entry.tool, entry.effect]));

describe("importing @modelcontextprotocol/server-everything", () => {
  it("derives each tool's effect from its hints, writes where it gives none that reads", () => {
    expect(effects(everything)).toMatchObject({
      echo: "read",
      "get-sum": "read",
      "get-env": "read",
      "toggle-simulated-logging": "external-write",
      "gzip-file-as-resource": "external-write",
      "simulate-research-query": "external-write",
    });
    expect(everything.report().every((entry) => entry.status === "available")).toBe(true);
  });

  it("calls a read tool through the seam and fences its answer", async () => {
    const { seam, context } = createTestHarness(everything.tools());
    const envelope = await seam.call(context(), "everything_get_sum", { a: 2, b: 40 });
    expect(envelope).toMatchObject({
      ok: true,
      provenance: { source: "mcp:everything/get-sum", trusted: false },
    });
    expect(envelope.ok && envelope.content).toContain("42");
  });

  it("passes the server none of the host's environment", async () => {
    const { seam, context } = createTestHarness(everything.tools());
    process.env.TOOLREG_TEST_SECRET = "must-not-leak";
    try {
      const envelope = await seam.call(context(), "everything_get_env", {});
      expect(envelope.ok).toBe(true);
      expect(envelope.ok && envelope.content).not.toContain("must-not-leak");
    } finally {
      delete process.env.TOOLREG_TEST_SECRET;
    }
  });

  it("imports the tools that ask their client, and keeps images and structured content", async () => {
    // Shown only to a client that declares sampling, elicitation and roots, as the import now does.
    expect(Object.keys(effects(everything))).toEqual(
      expect.arrayContaining(["trigger-sampling-request", "trigger-elicitation-request", "get-roots-list"]),
    );
    const { seam, context } = createTestHarness(everything.tools());
    const image = await seam.call(context(), "everything_get_tiny_image", {});
    expect(image.ok && image.content).toMatch(
      /\[image image\/png, \d+ bytes: not kept, as this deployment has no artifact store; it follows this text as image content\]/,
    );
    const weather = await seam.call(context(), "everything_get_structured_content", { location: "Chicago" });
    expect(weather).toMatchObject({
      ok: true,
      data: { temperature: expect.any(Number), conditions: expect.any(String) },
    });
  });

  it("parks a write for approval", async () => {
    const { seam, context } = createTestHarness(everything.tools());
    expect(await seam.call(context(), "everything_toggle_simulated_logging", {})).toMatchObject({
      ok: false,
      error: { code: "approval_required" },
    });
  });
});

describe("importing @modelcontextprotocol/server-filesystem", () => {
  it("derives each tool's effect: reads, destructive overwrites and moves, an external write for mkdir", () => {
    expect(effects(filesystem)).toMatchObject({
      read_text_file: "read",
      list_directory: "read",
      write_file: "destructive",
      edit_file: "destructive",
      move_file: "destructive",
      create_directory: "external-write",
    });
  });

  it("reads a file under its root through the seam", async () => {
    const { seam, context } = createTestHarness(filesystem.tools());
    const envelope = await seam.call(context(), "fs_read_text_file", { path: join(folder, "notes.txt") });
    expect(envelope.ok && envelope.content).toContain("first line");
  });

  it("parks write_file for approval and writes nothing", async () => {
    const { seam, context } = createTestHarness(filesystem.tools());
    const target = join(folder, "written.txt");
    const envelope = await seam.call(context(), "fs_write_file", { path: target, content: "x" });
    expect(envelope).toMatchObject({ ok: false, error: { code: "approval_required" } });
    expect(existsSync(target)).toBe(false);
  });
});
