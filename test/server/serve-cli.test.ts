import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { CLI } from "../cli/run-cli.js";

let child: ChildProcess | undefined;
let cwd: string;
afterEach(() => {
  child?.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts `toolreg serve` as a user would and collects what it prints until `until` matches. */
function serve(args: string[], until: RegExp): Promise<{ stdout: () => string }> {
  let stdout = "";
  child = spawn(process.execPath, [CLI, "serve", "--port", "0", ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (chunk) => {
    stdout += chunk.toString();
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${stdout}`)), 20_000);
    const check = () => {
      if (until.test(stdout)) {
        clearTimeout(timer);
        resolve({ stdout: () => stdout });
      }
    };
    child?.stdout?.on("data", check);
  });
}

describe("toolreg serve", () => {
  it("serves the standard and demo tools, creates an operator key and a console link on first start, and stops on SIGTERM", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-serve-"));
    const started = await serve([], /console: .*\n/);
    const output = started.stdout();
    const url = /toolreg registry on (http:\/\/[^ ]+)/.exec(output)?.[1] as string;
    const key = /\(shown once\): (trk_\S+)/.exec(output)?.[1] as string;
    const link = /console: (\S+\/login\?token=\S+)/.exec(output)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(key).toBeDefined();
    const auth = { authorization: `Bearer ${key}` };
    const manifest = (await (await fetch(`${url}/manifest.json`, { headers: auth })).json()) as {
      tools: { name: string }[];
    };
    expect(manifest.tools.map((tool) => tool.name)).toEqual(
      expect.arrayContaining([
        "calculate",
        "crm_read",
        "crm_write",
        "tasks_write",
        "alerts_write",
        "find_tools",
      ]),
    );
    const read = await fetch(`${url}/api/v1/tools/crm_read/invoke`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ entity: "contacts", limit: 3 }),
    });
    expect(read.status).toBe(200);
    const alert = await fetch(`${url}/api/v1/tools/alerts_write/invoke`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ subject: "disk almost full" }),
    });
    expect(alert.status).toBe(202);
    const login = await fetch(link, { redirect: "manual" });
    expect(login.status).toBe(303);

    const exited = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);
    expect(started.stdout()).toContain("stopped");

    // A second start finds the key: no new one, no token printed.
    const again = await serve([], /console: .*\n/);
    expect(again.stdout()).not.toContain("shown once");
    expect(again.stdout()).toContain("toolreg keys login");
  });

  it("serves the tools of the MCP servers --mcp-config lists, through the seam", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-serve-"));
    const upstream = fileURLToPath(new URL("../fixtures/mcp-upstream/upstream-server.mjs", import.meta.url));
    writeFileSync(
      join(cwd, "spec.json"),
      JSON.stringify({
        tools: [{ name: "echo", description: "Echoes.", annotations: { readOnlyHint: true } }],
      }),
    );
    writeFileSync(
      join(cwd, "mcp.json"),
      JSON.stringify({
        servers: [{ name: "fixture", command: process.execPath, args: [upstream, "spec.json"] }],
      }),
    );
    const output = (await serve(["--mcp-config", "mcp.json"], /console: .*\n/)).stdout();
    const url = /toolreg registry on (http:\/\/[^ ]+)/.exec(output)?.[1] as string;
    const key = /\(shown once\): (trk_\S+)/.exec(output)?.[1] as string;
    const response = await fetch(`${url}/api/v1/tools/fixture_echo/invoke`, {
      method: "POST",
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      body: JSON.stringify({ text: "through the server" }),
    });
    expect(await response.json()).toMatchObject({
      ok: true,
      data: { echoed: "through the server" },
      provenance: { source: "mcp:fixture/echo", trusted: false },
    });
  });

  it("on SIGTERM drains, and a second SIGTERM cuts the drain short: a write still running is recorded interrupted", async () => {
    cwd = mkdtempSync(join(tmpdir(), "toolreg-serve-"));
    const counting = fileURLToPath(new URL("../fixtures/counting/catalogue.mjs", import.meta.url));
    const started = await serve(["--registry", counting, "--drain-ms", "60000"], /console: .*\n/);
    const url = /toolreg registry on (http:\/\/[^ ]+)/.exec(started.stdout())?.[1] as string;
    const key = /\(shown once\): (trk_\S+)/.exec(started.stdout())?.[1] as string;
    const running = fetch(`${url}/api/v1/tools/count_write/invoke`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${key}`,
        "content-type": "application/json",
        "idempotency-key": "long-1",
      },
      body: JSON.stringify({ label: "long", ms: 60_000 }),
    }).catch(() => undefined);
    const log = join(cwd, "executions.log");
    await expect
      .poll(() => existsSync(log) && readFileSync(log, "utf8"), { timeout: 10_000 })
      .toContain("start");
    const exited = new Promise<number | null>((resolve) => child?.on("exit", (code) => resolve(code)));
    const stoppedAt = Date.now();
    child?.kill("SIGTERM");
    await new Promise((resolve) => setTimeout(resolve, 500));
    child?.kill("SIGTERM");
    expect(await exited).toBe(0);
    // Far inside the 60 s drain: the second signal forced it.
    expect(Date.now() - stoppedAt).toBeLessThan(15_000);
    expect(started.stdout()).toContain(
      "1 call that changes data still ran at the deadline and was recorded interrupted",
    );
    await running;
    const database = new Database(join(cwd, ".toolreg", "toolreg.db"), { readonly: true });
    try {
      expect(database.prepare("SELECT status FROM idempotency WHERE key = 'long-1'").get()).toEqual({
        status: "unknown",
      });
      expect(database.pragma("integrity_check", { simple: true })).toBe("ok");
    } finally {
      database.close();
    }
  });
});
