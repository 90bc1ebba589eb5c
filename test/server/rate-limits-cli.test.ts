import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CLI, runToolreg } from "../cli/run-cli.js";

const children: ChildProcess[] = [];
let cwd: string;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-limits-cli-"));
});
afterEach(() => {
  for (const child of children.splice(0)) child.kill("SIGKILL");
  rmSync(cwd, { recursive: true, force: true });
});

/** Starts `toolreg serve` on a fresh store as a user would; resolves with its URL and operator key. */
function serve(args: string[], store: string): Promise<{ url: string; key: string }> {
  const child = spawn(process.execPath, [CLI, "serve", "--port", "0", "--store", store, ...args], {
    cwd,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  let stdout = "";
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`serve printed only: ${stdout}`)), 20_000);
    child.stdout?.on("data", (chunk) => {
      stdout += chunk.toString();
      const url = /toolreg registry on (http:\/\/\S+)/.exec(stdout)?.[1];
      const key = /\(shown once\): (trk_\S+)/.exec(stdout)?.[1];
      if (url && key && /console: .*\n/.test(stdout)) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    });
  });
}

function invoke(url: string, key: string): Promise<Response> {
  return fetch(`${url}/api/v1/tools/calculate/invoke`, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
    body: JSON.stringify({ expression: "1+1" }),
  });
}

const WRONG_KEY = `trk_0123456789abcdef0123_${"x".repeat(43)}`;

describe("toolreg serve with limits", () => {
  it("admits exactly 100 of 150 calls within a minute under --rate-limit principal=100/min; the other 50 get 429 with Retry-After", async () => {
    const { url, key } = await serve(["--rate-limit", "principal=100/min"], "limits.db");
    const started = Date.now();
    const answers: { status: number; retryAfter: string | null; code?: string }[] = [];
    for (let i = 0; i < 150; i++) {
      const response = await invoke(url, key);
      const envelope = (await response.json()) as { ok: boolean; error?: { code: string } };
      answers.push({
        status: response.status,
        retryAfter: response.headers.get("retry-after"),
        ...(envelope.error ? { code: envelope.error.code } : {}),
      });
    }
    expect(Date.now() - started).toBeLessThan(60_000);
    const admitted = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect(admitted).toHaveLength(100);
    expect(refused).toHaveLength(50);
    expect(answers.findIndex((answer) => answer.status === 429)).toBe(100);
    for (const answer of refused) {
      expect(answer.code).toBe("rate_limited");
      expect(Number(answer.retryAfter)).toBeGreaterThanOrEqual(55);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(61);
    }
  });

  it("answers wrong keys 401 twenty times, then 429 unverified to that address, the right key included", async () => {
    const { url, key } = await serve([], "auth.db");
    const statuses: number[] = [];
    for (let i = 0; i < 300; i++) statuses.push((await invoke(url, WRONG_KEY)).status);
    expect(statuses.slice(0, 20)).toEqual(Array(20).fill(401));
    expect(statuses.slice(20)).toEqual(Array(280).fill(429));
    const right = await invoke(url, key);
    expect(right.status).toBe(429);
    expect(Number(right.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await right.json()).toMatchObject({ code: "too_many_auth_failures" });
  });

  it("lets the right key in again once the failures have left the window (--auth-failures 5/2s)", async () => {
    const { url, key } = await serve(["--auth-failures", "5/2s"], "auth-short.db");
    for (let i = 0; i < 5; i++) expect((await invoke(url, WRONG_KEY)).status).toBe(401);
    const refused = await invoke(url, key);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
    expect((await invoke(url, key)).status).toBe(200);
  });

  it("refuses a bad --rate-limit rule as a usage error on one line, naming it", async () => {
    const badRule = await runToolreg(["serve", "--rate-limit", "principal=100/fortnight"], cwd);
    expect(badRule.code).toBe(2);
    expect(badRule.stderr).toBe(
      'error: --rate-limit "principal=100/fortnight": unknown unit "fortnight": use s, min, hour or day\n',
    );
  });

  it("refuses a bad config file, or a missing one --config names, as a usage error naming it", async () => {
    writeFileSync(join(cwd, "toolreg.config.json"), JSON.stringify({ rateLimits: ["principal=0/min"] }));
    const badFile = await runToolreg(["call", "calculate", "--input", '{"expression":"1"}'], cwd);
    expect(badFile.code).toBe(2);
    expect(badFile.stderr).toBe(
      'error: toolreg.config.json: rateLimits[0]: the count in "0/min" must be at least 1\n',
    );
    const missing = await runToolreg(["--config", "nowhere.json", "call", "calculate"], cwd);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("error: --config nowhere.json: no such file\n");
  });

  it("takes rules from the config file in the working directory", async () => {
    writeFileSync(join(cwd, "toolreg.config.json"), JSON.stringify({ rateLimits: ["tool:calculate=2/min"] }));
    const { url, key } = await serve([], "file.db");
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await invoke(url, key)).status);
    expect(statuses).toEqual([200, 200, 429]);
  });
});
