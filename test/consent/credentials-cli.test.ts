/**
 * @module `toolreg credentials` and `toolreg serve --credentials-key-file`, as a user runs the built CLI:
 * a token typed on stdin is stored sealed and never shown again, the key is required and checked, an OAuth
 * toolkit's link is printed, and the server lists and revokes over HTTP, metadata only.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createSqliteConsentStore } from "../../src/stores/sqlite/consents.js";
import { CLI, type CliResult } from "../cli/run-cli.js";

const CATALOGUE = fileURLToPath(new URL("./notes-catalogue.mjs", import.meta.url));
const TOKEN = "tok_canary_4f1e9b2c7d";

let cwd: string;
let child: ChildProcess | undefined;
beforeEach(() => {
  cwd = mkdtempSync(join(tmpdir(), "toolreg-credentials-"));
  writeFileSync(join(cwd, "key"), `${randomBytes(32).toString("hex")}\n`);
  writeFileSync(join(cwd, "other-key"), randomBytes(32).toString("base64"));
});
afterEach(() => {
  child?.kill("SIGKILL");
  child = undefined;
  rmSync(cwd, { recursive: true, force: true });
});

/** The built CLI with `stdin` typed into it; TOOLREG_ variables from the test's own environment are left out. */
function toolreg(args: readonly string[], options: { stdin?: string; env?: Record<string, string> } = {}) {
  return new Promise<CliResult>((resolve) => {
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([name]) => !name.startsWith("TOOLREG_")),
    );
    const spawned = spawn(process.execPath, [CLI, ...args], { cwd, env: { ...env, ...options.env } });
    let stdout = "";
    let stderr = "";
    spawned.stdout.on("data", (chunk) => {
      stdout += chunk;
    });
    spawned.stderr.on("data", (chunk) => {
      stderr += chunk;
    });
    spawned.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    spawned.stdin.end(options.stdin ?? "");
  });
}

const connect = (extra: string[] = [], stdin = `${TOKEN}\n`) =>
  toolreg(
    [
      "--tenant",
      "acme",
      "credentials",
      "connect",
      "notes",
      "--provider",
      "notes",
      "--credentials-key-file",
      "key",
      ...extra,
    ],
    { stdin },
  );
const keyEnv = () => ({ TOOLREG_CREDENTIALS_KEY: readFileSync(join(cwd, "key"), "utf8") });

describe("toolreg credentials", () => {
  it("stores a token typed on stdin sealed, lists its metadata only, and revokes it", async () => {
    const stored = await connect(["--account", "bot-account", "--scopes", "notes:read"]);
    expect(stored).toEqual({
      code: 0,
      stdout: `stored tenant acme's credential "notes" for notes (version 1)\n`,
      stderr: "",
    });
    const listed = await toolreg(["--tenant", "acme", "credentials", "list", "--json"], { env: keyEnv() });
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      {
        tenantId: "acme",
        ref: "notes",
        kind: "token",
        provider: "notes",
        account: "bot-account",
        scopes: ["notes:read"],
      },
    ]);
    const table = await toolreg(["--tenant", "acme", "credentials", "list"], { env: keyEnv() });
    expect(table.stdout).toMatch(
      /^REF\s+WHOSE\s+KIND.*\nnotes\s+\(tenant\)\s+token\s+notes\s+notes:read\s+bot-account/,
    );
    for (const result of [stored, listed, table]) expect(result.stdout + result.stderr).not.toContain(TOKEN);
    const state = join(cwd, ".toolreg", "toolreg.db");
    expect(readFileSync(state).includes(TOKEN)).toBe(false);

    expect(await toolreg(["--tenant", "acme", "credentials", "revoke", "notes"], { env: keyEnv() })).toEqual({
      code: 0,
      stdout: `revoked tenant acme's credential "notes"\n`,
      stderr: "",
    });
    const revoked = JSON.parse(
      (await toolreg(["--tenant", "acme", "credentials", "list", "--json"], { env: keyEnv() })).stdout,
    );
    expect(revoked[0]).toMatchObject({ revokedReason: "revoked by operator" });
    expect(revoked[0].revokedAt).toBeGreaterThan(0);
    const again = await toolreg(["--tenant", "acme", "credentials", "revoke", "notes"], { env: keyEnv() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain("does not exist or was revoked already");
  });

  it("needs the key, and names a wrong one rather than reading garbage", async () => {
    await connect();
    const without = await toolreg(["credentials", "list"]);
    expect(without.code).toBe(2);
    expect(without.stderr).toContain("give the operator's key with --credentials-key-file");
    const wrong = await toolreg(["credentials", "list", "--credentials-key-file", "other-key"]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/is not the one this store's secrets are sealed under/);
    writeFileSync(join(cwd, "weak-key"), "hunter2");
    const weak = await toolreg(["credentials", "list", "--credentials-key-file", "weak-key"]);
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain("32 random bytes");
  });

  it("refuses an empty token, or two, and a ref no served toolkit uses", async () => {
    expect((await connect([], "")).stderr).toContain("type one token on stdin");
    expect((await connect([], "one two\n")).code).toBe(2);
    const unknown = await toolreg(
      ["credentials", "connect", "nobody-uses-this", "--credentials-key-file", "key"],
      {
        stdin: TOKEN,
      },
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('no served toolkit uses the credential "nobody-uses-this"');
  });

  it("prints the authorization link of a served OAuth toolkit, with PKCE and serve's callback", async () => {
    const args = [
      "--registry",
      CATALOGUE,
      "--principal",
      "alice",
      "credentials",
      "connect",
      "notes",
      "--oauth",
      "--url",
      "http://127.0.0.1:7999",
      "--credentials-key-file",
      "key",
    ];
    const noApp = await toolreg(args);
    expect(noApp.code).toBe(2);
    expect(noApp.stderr).toContain("TOOLREG_OAUTH_NOTES_CLIENT_ID");
    const printed = await toolreg(args, { env: { TOOLREG_OAUTH_NOTES_CLIENT_ID: "toolreg-app" } });
    expect(printed.code).toBe(0);
    // toolreg's start link, which binds the consent to alice's browser; the provider's URL stays in the store.
    const consentId = /^http:\/\/127\.0\.0\.1:7999\/oauth\/start\/([0-9a-f-]{36})$/.exec(
      printed.stdout.trim(),
    )?.[1];
    expect(consentId).toBeDefined();
    const database = new Database(join(cwd, ".toolreg/toolreg.db"));
    try {
      const key = Buffer.from(readFileSync(join(cwd, "key"), "utf8").trim(), "hex");
      const request = await createSqliteConsentStore(database, key).getRequest({
        tenantId: "local",
        id: consentId ?? "",
      });
      expect(request).toMatchObject({ principalId: "alice", credentialRef: "notes", status: "pending" });
      const link = new URL(request?.authorizationUrl ?? "");
      expect(link.origin + link.pathname).toBe("https://notes.example/authorize");
      expect(Object.fromEntries(link.searchParams)).toMatchObject({
        response_type: "code",
        client_id: "toolreg-app",
        redirect_uri: "http://127.0.0.1:7999/oauth/callback",
        code_challenge_method: "S256",
      });
    } finally {
      database.close();
    }
    expect(printed.stderr).toContain("signed in to the console at http://127.0.0.1:7999 as alice");
  });
});

describe("toolreg serve --credentials-key-file", () => {
  /** Starts serve and waits for its first-start operator key and address. */
  function serve(keyFile: string): Promise<{ url: string; key: string } | CliResult> {
    return new Promise((resolve) => {
      let stdout = "";
      let stderr = "";
      const spawned = spawn(
        process.execPath,
        [CLI, "--tenant", "acme", "serve", "--port", "0", "--credentials-key-file", keyFile],
        { cwd, stdio: ["ignore", "pipe", "pipe"] },
      );
      child = spawned;
      spawned.stdout.on("data", (chunk) => {
        stdout += chunk;
        const url = /toolreg registry on (http:\/\/\S+)/.exec(stdout)?.[1];
        const key = /\(shown once\): (trk_\S+)/.exec(stdout)?.[1];
        if (url && key) resolve({ url, key });
      });
      spawned.stderr.on("data", (chunk) => {
        stderr += chunk;
      });
      spawned.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
    });
  }

  it("lists and revokes over HTTP, metadata only, and will not start under another key", {
    timeout: 90_000,
  }, async () => {
    await connect();
    const refused = await serve("other-key");
    expect(refused).toMatchObject({ code: 1 });
    expect((refused as CliResult).stderr).toMatch(/is not the one this store's secrets are sealed under/);

    const started = await serve("key");
    if ("code" in started) throw new Error(`serve exited: ${started.stderr}`);
    const headers = { authorization: `Bearer ${started.key}`, "content-type": "application/json" };
    const listed = await fetch(`${started.url}/api/v1/credentials`, { headers });
    const text = await listed.text();
    expect(listed.status).toBe(200);
    expect(text).not.toContain(TOKEN);
    expect(JSON.parse(text)).toMatchObject({
      credentials: [{ ref: "notes", kind: "token", provider: "notes" }],
    });
    const revoke = (body: unknown) =>
      fetch(`${started.url}/api/v1/credentials/revoke`, {
        method: "POST",
        headers,
        body: JSON.stringify(body),
      });
    expect((await revoke({ ref: "notes" })).status).toBe(404);
    const revoked = await revoke({ ref: "notes", principalId: null });
    expect(revoked.status).toBe(200);
    expect(await revoked.json()).toMatchObject({ ref: "notes", revokedReason: "revoked by operator" });
  });
});
