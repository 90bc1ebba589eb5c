/** `toolreg keys`: the tenant and principal a key is for are the program's --tenant and --principal, wherever typed. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openSqliteAuthStore } from "../../src/stores/sqlite/auth.js";
import { runToolreg } from "./run-cli.js";

let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-keys-"));
});
afterEach(() => rmSync(cwd, { recursive: true, force: true }));

describe("toolreg keys", () => {
  it("creates a key for the tenant and principal given after the command or before it, and lists by tenant", async () => {
    const after = await runToolreg(
      ["keys", "create", "--tenant", "acme", "--principal", "bot", "--scopes", "a:b"],
      cwd,
    );
    expect(after.code).toBe(0);
    expect(after.stdout).toMatch(/^trk_\S+\n$/);
    expect(after.stderr).toContain("for acme/bot");
    const before = await runToolreg(
      ["--tenant", "other", "--principal", "ops", "keys", "create", "--operator"],
      cwd,
    );
    expect(before.stderr).toContain("for other/ops");

    const acme = JSON.parse((await runToolreg(["keys", "list", "--tenant", "acme", "--json"], cwd)).stdout);
    expect(
      acme.map((key: { tenantId: string; principalId: string }) => [key.tenantId, key.principalId]),
    ).toEqual([["acme", "bot"]]);
    const all = JSON.parse((await runToolreg(["keys", "list", "--json"], cwd)).stdout);
    expect(all).toHaveLength(2);
  });

  it("refuses to make a key for the default tenant or principal nobody typed", async () => {
    const result = await runToolreg(["keys", "create", "--principal", "bot"], cwd);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: keys create needs --tenant: say whom the key is for\n");
  });

  it("prints a console link for the tenant's operator, or with --principal for that user's own key", async () => {
    await runToolreg(["keys", "create", "--tenant", "acme", "--principal", "ops", "--operator"], cwd);
    await runToolreg(["keys", "create", "--tenant", "acme", "--principal", "bob"], cwd);
    const signedInAs = async (args: string[]) => {
      const printed = await runToolreg(["keys", "login", "--tenant", "acme", ...args], cwd);
      expect(printed.code).toBe(0);
      const token = new URL(printed.stdout.trim()).searchParams.get("token") as string;
      const auth = openSqliteAuthStore(join(cwd, ".toolreg", "toolreg.db"));
      try {
        return (await auth.redeemLoginToken(token))?.caller;
      } finally {
        await auth.close();
      }
    };
    expect(await signedInAs([])).toMatchObject({ principalId: "ops", operator: true });
    expect(await signedInAs(["--principal", "bob"])).toMatchObject({ principalId: "bob", operator: false });

    const nobody = await runToolreg(["keys", "login", "--tenant", "acme", "--principal", "carol"], cwd);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toBe(
      "error: carol has no live key in tenant acme; create one with keys create --principal carol\n",
    );
  });
});
