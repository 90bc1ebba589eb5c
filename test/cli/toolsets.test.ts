import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runToolreg } from "./run-cli.js";

const cwd = mkdtempSync(join(tmpdir(), "toolreg-toolsets-"));
afterAll(() => rmSync(cwd, { recursive: true, force: true }));
writeFileSync(join(cwd, "toolreg.config.json"), JSON.stringify({ toolsets: { acme: ["web", "data"] } }));

const calculate = (tenant: string) =>
  runToolreg(["--tenant", tenant, "call", "calculate", "--input", '{"expression":"6*7"}'], cwd);

describe("per-tenant toolsets from the config file", () => {
  it("hide a category a tenant has not switched on, from its calls, and leave other tenants whole", async () => {
    const refused = await calculate("acme");
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, error: { code: "unknown_tool" } });
    const other = await calculate("globex");
    expect(JSON.parse(other.stdout)).toMatchObject({ ok: true, content: "42" });
    const parsed = await runToolreg(
      ["--tenant", "acme", "call", "parse_csv", "--input", '{"csv":"a,b\\n1,2"}'],
      cwd,
    );
    expect(JSON.parse(parsed.stdout)).toMatchObject({ ok: true });
  });

  it("refuses a category that does not exist, naming the tenant", async () => {
    const dir = mkdtempSync(join(cwd, "bad-"));
    writeFileSync(join(dir, "toolreg.config.json"), JSON.stringify({ toolsets: { acme: ["socials"] } }));
    const result = await runToolreg(["list"], dir);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/toolsets\.acme\[0\]/);
  });
});
