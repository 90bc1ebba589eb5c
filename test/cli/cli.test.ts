import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { openSqliteStores } from "../../src/stores/sqlite/index.js";
import { DEFAULT_SERVED, runToolreg } from "./run-cli.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-cli-"));
});

describe("toolreg CLI", () => {
  it("lists the built-in tools as a table and as JSON", async () => {
    const table = await runToolreg(["list"], cwd);
    expect(table.code).toBe(0);
    expect(table.stdout.split("\n")[0]).toMatch(/^NAME\s+CATEGORY\s+EFFECT\s+APPROVAL\s+KEY\s+DESCRIPTION$/);
    expect(table.stdout).toMatch(/^calculate\s+general\s+read\s+never\s+no\s+Evaluates/m);
    const json = JSON.parse((await runToolreg(["list", "--json"], cwd)).stdout);
    expect(json.map((tool: { name: string }) => tool.name)).toEqual(DEFAULT_SERVED);
    expect(json[1].inputSchema.properties.expression.type).toBe("string");
  });

  it("describes a tool, and suggests a name for a typo", async () => {
    const described = await runToolreg(["describe", "calculate"], cwd);
    expect(described.stdout).toContain("| effect | read |");
    expect(described.stdout).toContain("## JSON Schema");
    const typo = await runToolreg(["describe", "calculte"], cwd);
    expect(typo).toMatchObject({
      code: 1,
      stderr: 'error: no tool named "calculte"; did you mean calculate?\n',
    });
  });

  it("calls calculate through the seam: 98, and invalid_input for code", async () => {
    const ok = await runToolreg(["call", "calculate", "--input", '{"expression":"2*(3+4)^2"}'], cwd);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toMatchObject({ ok: true, content: "98", data: { value: "98" } });
    const hostile = await runToolreg(
      ["call", "calculate", "--input", '{"expression":"process.exit(1)"}'],
      cwd,
    );
    expect(hostile.code).toBe(1);
    expect(JSON.parse(hostile.stdout)).toMatchObject({ ok: false, error: { code: "invalid_input" } });
  });

  it("answers an unknown tool with an envelope naming the nearest tools", async () => {
    const result = await runToolreg(["call", "calc"], cwd);
    expect(JSON.parse(result.stdout)).toMatchObject({
      ok: false,
      error: { code: "unknown_tool", details: { nearest: ["calculate"] } },
    });
  });

  it("gives one-line errors and exit 2 for bad flags and malformed JSON", async () => {
    const malformed = await runToolreg(["call", "calculate", "--input", "{expression:"], cwd);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/^error: --input is not valid JSON: .+\n$/);
    const badFlag = await runToolreg(["list", "--colour"], cwd);
    expect(badFlag.code).toBe(2);
    expect(badFlag.stderr.split("\n")[0]).toBe("error: unknown option '--colour'");
    const missing = await runToolreg(["call"], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr.split("\n")[0]).toBe("error: missing required argument 'name'");
    const registry = await runToolreg(["check", "--registry", "missing.mjs"], cwd);
    expect(registry).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --registry missing.mjs: Cannot find module .*\n$/),
    });
    const tenant = await runToolreg(["--tenant", "a b", "audit"], cwd);
    expect(tenant).toMatchObject({
      code: 2,
      stderr: `error: --tenant "a b" is not an identifier (letters, digits, . _ : @ / -)\n`,
    });
    const status = await runToolreg(["approvals", "list", "--status", "maybe"], cwd);
    expect(status).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^error: --status must be one of pending/),
    });
  });

  it("keeps state in the SQLite file: a call is recorded in the audit trail across commands", async () => {
    await runToolreg(["call", "now", "--input", '{"timezone":"Europe/Paris"}'], cwd);
    await runToolreg(["call", "now", "--input", '{"timezone":"Mars/Olympus"}'], cwd);
    const audit = JSON.parse((await runToolreg(["audit", "--json"], cwd)).stdout);
    expect(audit.map((event: { tool: string; outcome: string }) => `${event.tool}:${event.outcome}`)).toEqual(
      ["now:invalid_input", "now:ok"],
    );
    const stores = openSqliteStores(join(cwd, ".toolreg/toolreg.db"));
    try {
      expect(await stores.audit.list({ tenantId: "local" })).toHaveLength(2);
    } finally {
      stores.close();
    }
  });
});
